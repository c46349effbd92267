/**
 * `reinagent update [--check] [--manifest URL] [--target PATH] [--force]`: looks at the
 * release manifest (default: $REINAGENT_UPDATE_MANIFEST) and, unless `--check`, replaces
 * the binary with this platform's build (checked against the manifest's size and sha256;
 * the old one kept as `.bak`). `--target` (or $REINAGENT_UPDATE_TARGET) names the file to
 * replace instead of the running binary. Exit: 0 done / up to date, 1 failed, 2 bad input.
 */
import { checkForUpdate } from "../update/check.ts";
import { platformKey } from "../update/manifest.ts";
import { applyUpdate, updateTarget } from "../update/apply.ts";
import { applyProxyFile } from "../net/proxy_config.ts";
import type { UpdateArgs } from "./update_args.ts";
export { parseUpdateArgs } from "./update_args.ts";

export async function updateCommand(
  a: UpdateArgs,
  home: string,
  io: { line(s: string): void; err(s: string): void },
  current?: string,
): Promise<number> {
  if (!a.manifest) {
    io.err("reinagent: no release manifest: pass --manifest URL or set REINAGENT_UPDATE_MANIFEST");
    return 2;
  }
  await applyProxyFile(home);
  const c = await checkForUpdate(a.manifest, current);
  if (c.error || !c.manifest) {
    io.err(`reinagent: ${c.error ?? "no manifest"}`);
    return 1;
  }
  if (!c.available && !a.force) {
    io.line(`ReinAgent ${c.current} is up to date (the manifest offers ${c.latest}).`);
    return 0;
  }
  if (a.check) {
    io.line(`Update available: ${c.current} → ${c.latest} (run \`reinagent update\`).`);
    return 0;
  }
  const asset = c.manifest.platforms[platformKey()];
  if (!asset) {
    io.err(`reinagent: the manifest has no build for ${platformKey()}`);
    return 1;
  }
  try {
    const target = updateTarget(a.target);
    io.line(`Downloading ${c.latest} for ${platformKey()} (${asset.size} bytes)…`);
    const { backup } = await applyUpdate(asset, target);
    io.line(`Updated ${target} to ${c.latest}; the old one is ${backup}. Restart ReinAgent.`);
    return 0;
  } catch (e) {
    io.err(`reinagent: update failed, nothing changed: ${(e as Error).message}`);
    return 1;
  }
}
