/**
 * Custom slash commands: Markdown files whose body is a prompt template
 * (`$ARGUMENTS`, `$1`…`$9`), with optional frontmatter `name`, `description` and
 * `argument-hint` (the name defaults to the file name). Read from, first wins:
 *   <workspace>/.reinagent/commands, <workspace>/.claude/commands,
 *   <data folder>/commands, ~/.claude/commands
 * so users bring the commands they wrote for Claude Code. A file that cannot be used
 * (too large, bad name, unterminated frontmatter, empty, a duplicate, a link leading out
 * of the workspace) is reported as a problem, never skipped silently.
 */
import { basename } from "../../lib/path.ts";
import {
  COMMAND_LIMITS,
  COMMAND_NAME_RE,
  type CommandInfo,
  type CommandProblem,
  type CommandSource,
} from "../../protocol/index.ts";
import { type DefinitionDir, definitionDirs, readDefinitionFiles } from "./definition_files.ts";

export interface CustomCommand extends CommandInfo {
  body: string;
}

export type CommandDir = DefinitionDir;

/** The folders searched for a workspace, highest precedence first. */
export const commandDirs = (workspace: string, dataHome: string, userHome?: string): CommandDir[] =>
  definitionDirs("commands", workspace, dataHome, userHome);

/** Splits `---` frontmatter from the body; null when it is not terminated. */
export function splitFrontmatter(
  text: string,
): { meta: Record<string, string>; body: string } | null {
  const src = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  if (!/^---[ \t]*\n/.test(src)) return { meta: {}, body: src };
  const rest = src.slice(src.indexOf("\n") + 1);
  const close = /^---[ \t]*$/m.exec(rest);
  if (!close) return null;
  const body = rest.slice(close.index + close[0].length).replace(/^\n/, "");
  return parseMeta(rest.slice(0, close.index), body);
}

function parseMeta(block: string, body: string): { meta: Record<string, string>; body: string } {
  const meta: Record<string, string> = {};
  for (const line of block.split("\n")) {
    const m = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    meta[m[1].toLowerCase()] = m[2].trim().replace(/^(["'])(.*)\1$/, "$2");
  }
  return { meta, body };
}

/** One file as a command, or the reason it cannot be one. */
export function parseCommandFile(
  path: string,
  text: string,
  source: CommandSource,
): CustomCommand | { problem: string } {
  const parts = splitFrontmatter(text);
  if (!parts) return { problem: "the frontmatter starts with --- but never ends" };
  const name = parts.meta.name || basename(path).replace(/\.md$/i, "");
  if (!COMMAND_NAME_RE.test(name)) {
    return {
      problem: `"${name}" is not a valid command name (letters, digits and _ . : -, ` +
        `at most ${COMMAND_LIMITS.nameChars} characters)`,
    };
  }
  const body = parts.body.trim();
  if (!body) return { problem: "the command has no text" };
  const firstLine = body.split("\n").find((l) => l.trim())?.trim() ?? "";
  const description = (parts.meta.description || firstLine.replace(/^#+\s*/, ""))
    .slice(0, COMMAND_LIMITS.descriptionChars);
  const argHint = parts.meta["argument-hint"]?.slice(0, 80);
  return {
    name: name.toLowerCase(),
    description,
    source,
    path,
    body,
    ...(argHint ? { argHint } : {}),
  };
}

/**
 * The custom commands of `dirs` (earlier folders win) and the problems found.
 * `reserved` names (the built-ins) cannot be redefined.
 */
export async function loadCustomCommands(
  dirs: CommandDir[],
  reserved: (name: string) => boolean,
): Promise<{ commands: CustomCommand[]; problems: CommandProblem[] }> {
  const problems: CommandProblem[] = [];
  const byName = new Map<string, CustomCommand>();
  for (const d of dirs) {
    const files = await readDefinitionFiles(d, problems, {
      files: COMMAND_LIMITS.filesPerDir,
      bytes: COMMAND_LIMITS.fileBytes,
      what: "command files",
    });
    for (const f of files) {
      const c = parseCommandFile(f.path, f.text, d.source);
      if ("problem" in c) problems.push({ path: f.path, message: c.problem });
      else if (reserved(c.name)) {
        problems.push({ path: f.path, message: `/${c.name} is built in; this file is not used` });
      } else if (byName.has(c.name)) {
        problems.push({
          path: f.path,
          message: `/${c.name} is also defined in ${byName.get(c.name)!.path}, which is used`,
        });
      } else byName.set(c.name, c);
    }
  }
  const commands = [...byName.values()].sort((a, b) => a.name < b.name ? -1 : 1);
  return { commands, problems };
}
