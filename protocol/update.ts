/**
 * Self-update from a release manifest: `{version, platforms: {"<os>-<arch>":
 * {url, sha256, size}}}` (os and arch as Deno names them: `linux-x86_64`,
 * `darwin-aarch64`, `windows-x86_64`). The binary is downloaded next to the running one,
 * checked (size, sha256), synced and renamed over it; the old one is kept as `.bak`.
 *
 * Op: `update.check {}` — whether a newer version is offered (About's "Update available").
 */
import { obj, type Schema } from "./schema.ts";

export interface ReleaseAsset {
  url: string;
  sha256: string;
  size: number;
}

export interface ReleaseManifest {
  version: string;
  platforms: Record<string, ReleaseAsset>;
}

export interface UpdateCheck {
  current: string;
  /** The manifest's version (null: no manifest configured or it could not be read). */
  latest: string | null;
  available: boolean;
  /** The manifest consulted (null: none configured). */
  manifestUrl: string | null;
  error: string | null;
}

export const UPDATE_OP_ARGS = {
  "update.check": obj({}),
} satisfies Record<string, Schema>;

export interface UpdateOpResults {
  "update.check": UpdateCheck;
}
