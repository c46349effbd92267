/**
 * Replacing the binary with a release's: downloaded next to it (same folder, so the
 * rename is atomic), bounded by the manifest's size, hashed while it streams, checked
 * (size and sha256), made executable, synced, then renamed over the target — the old one
 * kept as `<target>.bak`. A wrong size or checksum (or any failure) removes the download
 * and leaves the old binary in place.
 */
import { basename, dirname, join } from "../../lib/path.ts";
import type { ReleaseAsset } from "../../protocol/update.ts";
import { netFetch } from "../../tools/net/proxy.ts";

export class UpdateError extends Error {}

/** The binary to replace: `override` (tests, `--target`), else the running compiled binary. */
export function updateTarget(override?: string | null): string {
  if (override) return override;
  // deno-lint-ignore no-explicit-any
  if (!(Deno.build as any).standalone) {
    throw new UpdateError(
      "this is not a compiled ReinAgent (it runs under deno); update the source instead " +
        "(or pass --target to the binary to replace)",
    );
  }
  return Deno.execPath();
}

async function removeQuietly(path: string) {
  await Deno.remove(path).catch(() => {});
}

/** Downloads `asset` and puts it in place of `target`; returns the `.bak` path. */
export async function applyUpdate(
  asset: ReleaseAsset,
  linkOrTarget: string,
  opts: { timeoutMs?: number } = {},
): Promise<{ backup: string }> {
  // A link (/usr/local/bin/reinagent → /opt/…) stays a link: the file it leads to is replaced.
  const target = await Deno.realPath(linkOrTarget).catch(() => linkOrTarget);
  const st = await Deno.stat(target).catch(() => null);
  if (!st?.isFile) throw new UpdateError(`${target} is not a file`);
  const tmp = join(dirname(target), `.${basename(target)}.update-${crypto.randomUUID()}`);
  const backup = `${target}.bak`;
  const file = await Deno.open(tmp, { write: true, createNew: true, mode: 0o700 });
  let ok = false;
  try {
    const res = await netFetch(asset.url, {
      signal: AbortSignal.timeout(opts.timeoutMs ?? 30 * 60_000),
    }).catch((e) => {
      throw new UpdateError(`cannot download ${asset.url}: ${(e as Error).message}`);
    });
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new UpdateError(`${asset.url} answered ${res.status} ${res.statusText}`);
    }
    // Loaded here: `update` is a CLI command, the start of every other one never pays for it.
    const { createHash } = await import("node:crypto");
    const hash = createHash("sha256");
    let size = 0;
    for await (const chunk of res.body) {
      size += chunk.length;
      if (size > asset.size) {
        throw new UpdateError(`the download is larger than the manifest's ${asset.size} bytes`);
      }
      hash.update(chunk);
      for (let off = 0; off < chunk.length;) off += await file.write(chunk.subarray(off));
    }
    if (size !== asset.size) {
      throw new UpdateError(`the download has ${size} bytes, the manifest says ${asset.size}`);
    }
    const sum = hash.digest("hex");
    if (sum !== asset.sha256) {
      throw new UpdateError(`checksum mismatch: got sha256 ${sum}, expected ${asset.sha256}`);
    }
    await file.sync();
    file.close();
    if (Deno.build.os !== "windows") await Deno.chmod(tmp, st.mode ? st.mode & 0o777 : 0o755);
    // Keep the old binary: a link beside it (the running process keeps its inode), then
    // the new one renamed over the target in one step. Windows cannot replace a running
    // .exe, but can rename it away.
    await removeQuietly(backup);
    if (Deno.build.os === "windows") {
      await Deno.rename(target, backup);
      await Deno.rename(tmp, target);
    } else {
      await Deno.link(target, backup).catch(() => Deno.copyFile(target, backup));
      await Deno.rename(tmp, target);
    }
    ok = true;
    return { backup };
  } finally {
    if (!ok) {
      try {
        file.close();
      } catch { /* closed already */ }
      await removeQuietly(tmp);
    }
  }
}
