/**
 * What a file's header says it runs on: ELF, Mach-O or PE, and the CPU. `deno compile`
 * takes DENORT_BIN as the base for every target without looking, so a Linux denort
 * given for a macOS target would yield a binary that can never start.
 */

export interface ExecutableKind {
  os: "linux" | "darwin" | "windows";
  /** null for a universal (fat) Mach-O: it may hold either CPU. */
  arch: "x86_64" | "aarch64" | null;
}

const u16le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u32le = (b: Uint8Array, at: number) =>
  (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;

/** Reads the kind from the first bytes of a file (4 KiB is plenty), or null when unknown. */
export function executableKind(head: Uint8Array): ExecutableKind | null {
  if (
    head.length >= 20 && head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c &&
    head[3] === 0x46
  ) {
    // e_machine, little-endian on both CPUs Deno ships for (EI_DATA = 1).
    if (head[5] !== 1) return null;
    const machine = u16le(head, 18);
    const arch = machine === 0x3e ? "x86_64" : machine === 0xb7 ? "aarch64" : undefined;
    return arch ? { os: "linux", arch } : null;
  }
  if (head.length >= 8 && u32le(head, 0) === 0xfeedfacf) {
    const cpu = u32le(head, 4);
    const arch = cpu === 0x01000007 ? "x86_64" : cpu === 0x0100000c ? "aarch64" : undefined;
    return arch ? { os: "darwin", arch } : null;
  }
  if (
    head.length >= 4 && head[0] === 0xca && head[1] === 0xfe && head[2] === 0xba &&
    head[3] === 0xbe
  ) {
    return { os: "darwin", arch: null };
  }
  if (head.length >= 0x40 && head[0] === 0x4d && head[1] === 0x5a) {
    const pe = u32le(head, 0x3c);
    if (pe + 6 > head.length || u32le(head, pe) !== 0x00004550) return null;
    const machine = u16le(head, pe + 4);
    const arch = machine === 0x8664 ? "x86_64" : machine === 0xaa64 ? "aarch64" : undefined;
    return arch ? { os: "windows", arch } : null;
  }
  return null;
}

/** The kind a target triple needs (`x86_64-unknown-linux-gnu`, `aarch64-apple-darwin`, …). */
export function targetKind(triple: string): ExecutableKind | null {
  const arch = triple.startsWith("x86_64-")
    ? "x86_64"
    : triple.startsWith("aarch64-")
    ? "aarch64"
    : null;
  const os = triple.includes("-linux-")
    ? "linux"
    : triple.includes("-apple-darwin")
    ? "darwin"
    : triple.includes("-windows-")
    ? "windows"
    : null;
  return arch && os ? { os, arch } : null;
}

/** Whether a file of kind `have` can serve as the base for kind `want`. */
export function kindFits(have: ExecutableKind, want: ExecutableKind): boolean {
  return have.os === want.os && (have.arch === null || have.arch === want.arch);
}

export const describeKind = (k: ExecutableKind) => `${k.os} ${k.arch ?? "universal"} executable`;
