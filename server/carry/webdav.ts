/**
 * WebDAV upload and download of a backup file: `PUT` and `GET` of one URL with HTTP
 * Basic auth when a user name is given. Answers are bounded in size and time.
 */
import { netFetch } from "../../tools/net/proxy.ts";
import { Buffer } from "node:buffer";
import { CARRY_LIMITS } from "../../protocol/carry.ts";

export interface WebdavTarget {
  url: string;
  username?: string;
  password?: string;
}

export class WebdavError extends Error {}

function headers(t: WebdavTarget, extra: Record<string, string> = {}): Record<string, string> {
  const h: Record<string, string> = { ...extra };
  if (t.username) {
    h.authorization = `Basic ${
      Buffer.from(`${t.username}:${t.password ?? ""}`).toString("base64")
    }`;
  }
  return h;
}

/** The URL without credentials, for messages. */
const shown = (url: string) => url.replace(/\/\/[^/@]*@/, "//");

export async function webdavPut(t: WebdavTarget, body: string): Promise<number> {
  const res = await netFetch(t.url, {
    method: "PUT",
    headers: headers(t, { "content-type": "application/json" }),
    body,
    signal: AbortSignal.timeout(30_000),
  }).catch((e) => {
    throw new WebdavError(`cannot reach ${shown(t.url)}: ${(e as Error).message}`);
  });
  await res.body?.cancel();
  if (!res.ok) {
    throw new WebdavError(`${shown(t.url)} answered ${res.status} ${res.statusText} to PUT`);
  }
  return new TextEncoder().encode(body).length;
}

export async function webdavGet(t: WebdavTarget): Promise<string> {
  const res = await netFetch(t.url, { headers: headers(t), signal: AbortSignal.timeout(30_000) })
    .catch((e) => {
      throw new WebdavError(`cannot reach ${shown(t.url)}: ${(e as Error).message}`);
    });
  if (!res.ok) {
    await res.body?.cancel();
    throw new WebdavError(`${shown(t.url)} answered ${res.status} ${res.statusText} to GET`);
  }
  const reader = res.body!.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > CARRY_LIMITS.backupBytes) {
      await reader.cancel();
      throw new WebdavError(`the file at ${shown(t.url)} is larger than a backup can be`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
