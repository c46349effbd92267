/**
 * The client side of the control endpoint: reads `instance.json` and asks the server
 * it names (light: loaded by `main.ts` before anything heavy, for a fast hand-over).
 */
import { netFetch } from "../../tools/net/proxy.ts";
import { instancePath } from "../home.ts";
import type { InstanceInfo, WindowReply } from "./control.ts";

export interface InstanceFile {
  pid: number;
  base: string;
  control: { url: string; secret: string };
}

/** The instance file, when it is whole and names a control endpoint. */
export async function readInstanceFile(home: string): Promise<InstanceFile | null> {
  try {
    const v = JSON.parse(await Deno.readTextFile(instancePath(home)));
    const c = v?.control;
    if (
      Number.isInteger(v.pid) && typeof v.base === "string" && typeof c?.url === "string" &&
      c.url.startsWith("http://127.0.0.1:") && typeof c.secret === "string"
    ) return { pid: v.pid, base: v.base, control: { url: c.url, secret: c.secret } };
  } catch { /* missing, or being written */ }
  return null;
}

async function ask<T>(
  file: InstanceFile,
  path: string,
  method: "GET" | "POST",
  timeoutMs: number,
): Promise<T | null> {
  try {
    const res = await netFetch(`${file.control.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${file.control.secret}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) {
      await res.body?.cancel();
      return null;
    }
    return await res.json() as T;
  } catch {
    return null; // not listening (yet, or any more)
  }
}

/** The running server's info, if `instance.json` names one that answers (and is `pid`). */
export async function instanceInfo(
  home: string,
  timeoutMs = 1000,
): Promise<{ file: InstanceFile; info: InstanceInfo } | null> {
  const file = await readInstanceFile(home);
  if (!file) return null;
  const info = await ask<InstanceInfo>(file, "/info", "GET", timeoutMs);
  return info && info.pid === file.pid ? { file, info } : null;
}

/** Asks the running server to open a window (it owns windows: their closing is its to see). */
export async function requestWindow(file: InstanceFile, timeoutMs = 3000): Promise<WindowReply> {
  return await ask<WindowReply>(file, "/window", "POST", timeoutMs) ??
    { opened: false, reason: "the running instance did not answer" };
}
