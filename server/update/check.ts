/** Whether the manifest offers a newer version than this one (About, `reinagent update --check`). */
import type { ReleaseManifest, UpdateCheck } from "../../protocol/update.ts";
import { VERSION } from "../version.ts";
import { compareVersions, fetchManifest, manifestUrlFromEnv } from "./manifest.ts";

export async function checkForUpdate(
  manifestUrl: string | null = manifestUrlFromEnv(),
  current = VERSION,
): Promise<UpdateCheck & { manifest: ReleaseManifest | null }> {
  const none = { current, latest: null, available: false, manifestUrl, manifest: null };
  if (!manifestUrl) return { ...none, error: null };
  try {
    const manifest = await fetchManifest(manifestUrl);
    return {
      current,
      latest: manifest.version,
      available: compareVersions(manifest.version, current) > 0,
      manifestUrl,
      manifest,
      error: null,
    };
  } catch (e) {
    return { ...none, error: (e as Error).message };
  }
}
