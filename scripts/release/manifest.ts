/**
 * The last step of a release: given the folder of compiled binaries
 * (`reinagent-<target triple>[.exe]`, as `deno task compile --all` names them), writes
 * `SHA256SUMS` (the format `sha256sum -c` reads) and `manifest.json`, the file
 * `reinagent update` reads: `{version, platforms: {"<os>-<arch>": {url, sha256, size}}}`
 * with os and arch spelt as `Deno.build` spells them on that machine.
 *
 * Usage: deno run --allow-read --allow-write scripts/release/manifest.ts
 *          --dir DIR --version X.Y.Z --base-url URL [--require-all]
 * (`--base-url`: where the files will be downloaded from, e.g. a release's download
 * folder; `--require-all`: fail unless every target of scripts/compile.ts is present.)
 */
import { TARGETS } from "../compile.ts";
import { targetKind } from "../compile/executable_kind.ts";

export interface ReleaseFiles {
  manifest: { version: string; platforms: Record<string, AssetEntry> };
  sums: string;
}
interface AssetEntry {
  url: string;
  sha256: string;
  size: number;
}

const BINARY_RE = /^reinagent-([a-z0-9_]+-[a-z0-9_]+-[a-z0-9_]+(?:-[a-z0-9_]+)?)(\.exe)?$/;

/** The platform key a binary for `triple` reports at run time, or null when unknown. */
export function platformOf(triple: string): string | null {
  const kind = targetKind(triple);
  return kind?.arch ? `${kind.os}-${kind.arch}` : null;
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** What to write for the binaries in `dir`; throws when a release would be incomplete. */
export async function releaseFiles(
  dir: string,
  version: string,
  baseUrl: string,
  requireAll = false,
): Promise<ReleaseFiles> {
  if (!/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]{1,40})?$/.test(version)) {
    throw new Error(`"${version}" is not a version like 1.2.3`);
  }
  const base = baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`;
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && BINARY_RE.test(e.name)) names.push(e.name);
  }
  names.sort();
  const platforms: Record<string, AssetEntry> = {};
  const sums: string[] = [];
  for (const name of names) {
    const triple = name.match(BINARY_RE)![1];
    const key = platformOf(triple);
    if (!key) throw new Error(`${name}: unknown target ${triple}`);
    if (platforms[key]) throw new Error(`${name}: a second binary for ${key}`);
    const bytes = await Deno.readFile(`${dir}/${name}`);
    const sha256 = await sha256Hex(bytes);
    platforms[key] = {
      url: new URL(encodeURIComponent(name), base).href,
      sha256,
      size: bytes.length,
    };
    sums.push(`${sha256}  ${name}`);
  }
  if (names.length === 0) throw new Error(`no reinagent-<target> binaries in ${dir}`);
  if (requireAll) {
    const missing = TARGETS.filter((t) => !platforms[platformOf(t)!]);
    if (missing.length) throw new Error(`missing binaries for ${missing.join(", ")}`);
  }
  return { manifest: { version, platforms }, sums: sums.join("\n") + "\n" };
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

if (import.meta.main) {
  const dir = flag(Deno.args, "--dir");
  const version = flag(Deno.args, "--version");
  const baseUrl = flag(Deno.args, "--base-url");
  if (!dir || !version || !baseUrl) {
    console.error("usage: manifest.ts --dir DIR --version X.Y.Z --base-url URL [--require-all]");
    Deno.exit(2);
  }
  try {
    const r = await releaseFiles(dir, version, baseUrl, Deno.args.includes("--require-all"));
    await Deno.writeTextFile(`${dir}/SHA256SUMS`, r.sums);
    await Deno.writeTextFile(`${dir}/manifest.json`, JSON.stringify(r.manifest, null, 2) + "\n");
    console.log(
      `${dir}/manifest.json: ${version}, ${Object.keys(r.manifest.platforms).join(", ")}`,
    );
  } catch (e) {
    console.error(`release manifest: ${(e as Error).message}`);
    Deno.exit(1);
  }
}
