/**
 * Installing a skill into `<data dir>/skills/<name>`: from a folder on the server or an
 * uploaded zip. Both become the same list of files first (bounded in count and size,
 * SKILL.md required at the top, its name read from the frontmatter), are written into
 * a staging folder and then renamed into place — an install either lands whole or
 * leaves nothing. An existing skill of that name is never overwritten.
 */
import { join } from "../../lib/path.ts";
import { SKILL_LIMITS } from "../../protocol/skills.ts";
import { isInside } from "../../tools/paths.ts";
import { parseSkillFile } from "./frontmatter.ts";
import { SKILL_FILE, skillsDir } from "./discover.ts";
import { readZip, ZipError } from "./zip.ts";

export class InstallError extends Error {
  constructor(
    readonly code: "invalid_args" | "conflict" | "too_large" | "not_found",
    message: string,
  ) {
    super(message);
  }
}

interface PlannedFile {
  segments: string[];
  data: Uint8Array;
  exec: boolean;
}

/** A folder name for a skill: letters, digits, `.`, `_`, `-` (others become `-`). */
export function folderName(name: string): string {
  const slug = name.normalize("NFKC").toLowerCase().replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "").slice(0, 64);
  return slug || "skill";
}

const mb = (n: number) => `${Math.round(n / 1048576)} MB`;

/** Writes the files as one new skill folder; returns its folder name. */
async function commit(home: string, files: PlannedFile[], fallbackName: string): Promise<string> {
  const top = files.find((f) => f.segments.length === 1 && f.segments[0] === SKILL_FILE);
  if (!top) {
    throw new InstallError("invalid_args", `there is no ${SKILL_FILE} at the top of the skill`);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(top.data);
  } catch {
    throw new InstallError("invalid_args", `${SKILL_FILE} is not UTF-8 text`);
  }
  if (top.data.length > SKILL_LIMITS.fileBytes) {
    throw new InstallError(
      "too_large",
      `${SKILL_FILE} is larger than ${SKILL_LIMITS.fileBytes / 1024} KB`,
    );
  }
  const meta = parseSkillFile(text);
  if (!meta.description) {
    throw new InstallError("invalid_args", `${SKILL_FILE} needs a description in its frontmatter`);
  }
  const name = folderName(meta.name ?? fallbackName);
  const root = skillsDir(home);
  await Deno.mkdir(root, { recursive: true });
  const dest = join(root, name);
  try {
    await Deno.lstat(dest);
    throw new InstallError("conflict", `a skill named "${name}" is already installed (${dest})`);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const staging = join(root, `.install-${crypto.randomUUID()}`);
  await Deno.mkdir(staging);
  try {
    for (const f of files) {
      const target = join(staging, ...f.segments);
      // The segments were checked; this is a second guard against leaving the folder.
      if (!isInside(target, staging) || target === staging) {
        throw new InstallError("invalid_args", `${f.segments.join("/")} leads outside the skill`);
      }
      await Deno.mkdir(join(target, ".."), { recursive: true });
      await Deno.writeFile(target, f.data, { mode: f.exec ? 0o755 : 0o644, createNew: true });
    }
    await Deno.rename(staging, dest);
  } catch (e) {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
    if (e instanceof Deno.errors.AlreadyExists) {
      throw new InstallError(
        "conflict",
        `the skill lists a file twice or "${name}" appeared meanwhile`,
      );
    }
    throw e;
  }
  return name;
}

/** Installs an uploaded zip (its bytes). SKILL.md at the top or in its only folder. */
export async function installZip(
  home: string,
  zip: Uint8Array,
  fallbackName = "skill",
): Promise<string> {
  if (zip.length > SKILL_LIMITS.zipBytes) {
    throw new InstallError("too_large", `the zip is larger than ${mb(SKILL_LIMITS.zipBytes)}`);
  }
  let entries;
  try {
    entries = await readZip(zip, {
      files: SKILL_LIMITS.installFiles,
      bytes: SKILL_LIMITS.installBytes,
    });
  } catch (e) {
    if (e instanceof ZipError) throw new InstallError("invalid_args", `zip refused: ${e.message}`);
    throw e;
  }
  // Archivers' side files are no part of the skill.
  const files = entries.filter((e) =>
    !e.dir && e.segments[0] !== "__MACOSX" && e.segments.at(-1) !== ".DS_Store"
  );
  const atTop = files.some((f) => f.segments.length === 1 && f.segments[0] === SKILL_FILE);
  let strip = 0;
  let name = fallbackName;
  if (!atTop) {
    const firsts = new Set(files.map((f) => f.segments[0]));
    const only = firsts.size === 1 ? [...firsts][0] : null;
    if (!only || !files.some((f) => f.segments.length === 2 && f.segments[1] === SKILL_FILE)) {
      throw new InstallError(
        "invalid_args",
        `the zip must hold ${SKILL_FILE} at its top or inside its only folder`,
      );
    }
    strip = 1;
    name = only;
  }
  return await commit(
    home,
    files.map((f) => ({ segments: f.segments.slice(strip), data: f.data, exec: f.exec })),
    name,
  );
}

/** Installs a copy of a folder on this machine (links inside it are refused). */
export async function installFolder(
  home: string,
  source: string,
  hidden: string[],
): Promise<string> {
  let src: string;
  try {
    src = await Deno.realPath(source);
    if (!(await Deno.stat(src)).isDirectory) throw new Deno.errors.NotFound();
  } catch {
    throw new InstallError("not_found", `${source} is not a folder on the server`);
  }
  for (const h of hidden) {
    let rh: string;
    try {
      rh = await Deno.realPath(h);
    } catch {
      continue;
    }
    if (isInside(src, rh) || isInside(rh, src)) {
      throw new InstallError(
        "invalid_args",
        `${source} is (or holds) ${h}, ReinAgent's data folder or a protected folder`,
      );
    }
  }
  const files: PlannedFile[] = [];
  let total = 0;
  const walk = async (dir: string, segs: string[]) => {
    for await (const e of Deno.readDir(dir)) {
      const here = [...segs, e.name];
      const shown = here.join("/");
      if (e.isSymlink) {
        throw new InstallError("invalid_args", `${shown} is a link; links are not copied`);
      }
      if (e.name === ".git" && e.isDirectory) continue;
      if (e.isDirectory) {
        await walk(join(dir, e.name), here);
        continue;
      }
      if (!e.isFile) continue;
      if (files.length >= SKILL_LIMITS.installFiles) {
        throw new InstallError(
          "too_large",
          `the folder has more than ${SKILL_LIMITS.installFiles} files`,
        );
      }
      const path = join(dir, e.name);
      const st = await Deno.stat(path);
      total += st.size;
      if (total > SKILL_LIMITS.installBytes) {
        throw new InstallError(
          "too_large",
          `the folder is larger than ${mb(SKILL_LIMITS.installBytes)}`,
        );
      }
      files.push({
        segments: here,
        data: await Deno.readFile(path),
        exec: ((st.mode ?? 0) & 0o111) !== 0,
      });
    }
  };
  await walk(src, []);
  return await commit(home, files, src.split(/[\\/]/).at(-1) || "skill");
}
