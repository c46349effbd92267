/**
 * Sub-agent types: the built-ins and the user's Markdown definitions. A definition is
 * a `.md` file with frontmatter `name, description, tools, model` and the system
 * prompt as its body (the format of Claude Code's agents, whose tool names are mapped
 * to ours). Read from, first wins:
 *   <workspace>/.reinagent/agents, <workspace>/.claude/agents,
 *   <data folder>/agents, ~/.claude/agents
 * A user type may replace a built-in of the same name. A file that cannot be used is
 * reported as a problem, never skipped silently.
 */
import { basename } from "../../../lib/path.ts";
import { SUBAGENT_LIMITS } from "../../../protocol/subagents.ts";
import {
  type DefinitionDir,
  definitionDirs as agentDirs,
  readDefinitionFiles,
} from "../../commands/definition_files.ts";
import { splitFrontmatter } from "../../commands/custom.ts";
import explorerPrompt from "./prompts/explorer.md" with { type: "text" };
import generalPrompt from "./prompts/general.md" with { type: "text" };
import reviewerPrompt from "./prompts/code-reviewer.md" with { type: "text" };
import testRunnerPrompt from "./prompts/test-runner.md" with { type: "text" };

export interface SubagentDef {
  name: string;
  description: string;
  /** Tool names as written (ours or Claude Code's); null = every tool a sub-agent may have. */
  tools: string[] | null;
  /** `provider/model`, or null for the parent's model. */
  model: string | null;
  /** The type's instructions (its system prompt). */
  prompt: string;
  source: "builtin" | "workspace" | "user";
  path?: string;
}

export interface DefProblem {
  path: string;
  message: string;
}

export interface SubagentCatalog {
  defs: SubagentDef[];
  problems: DefProblem[];
  get(name: string): SubagentDef | undefined;
}

const READ_ONLY = ["read_file", "list_dir", "glob", "grep"];

export const BUILTIN_SUBAGENTS: readonly SubagentDef[] = [
  {
    name: "explorer",
    description: "Read-only research: finds files, reads code and answers questions about " +
      "the codebase. Cannot change files or run commands.",
    tools: READ_ONLY,
    model: null,
    prompt: explorerPrompt,
    source: "builtin",
  },
  {
    name: "general",
    description: "General-purpose: researches, edits files and runs commands to complete a " +
      "multi-step task (also called fixer).",
    tools: [
      ...READ_ONLY,
      "write_file",
      "edit_file",
      "delete_file",
      "apply_patch",
      "exec_command",
      "webfetch",
      "websearch",
    ],
    model: null,
    prompt: generalPrompt,
    source: "builtin",
  },
  {
    name: "code-reviewer",
    description: "Reviews changes or code for bugs, risks and style; reports findings with " +
      "file:line references. Does not change files.",
    tools: [...READ_ONLY, "exec_command"],
    model: null,
    prompt: reviewerPrompt,
    source: "builtin",
  },
  {
    name: "test-runner",
    description: "Runs the project's tests (or the ones named), and reports failures with " +
      "their causes. Does not change files.",
    tools: [...READ_ONLY, "exec_command"],
    model: null,
    prompt: testRunnerPrompt,
    source: "builtin",
  },
];

/** Other names models use for the built-ins (Claude Code's, and "fixer"). */
const ALIASES: Record<string, string> = {
  explore: "explorer",
  "general-purpose": "general",
  fixer: "general",
  reviewer: "code-reviewer",
};

const NAME_RE = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Splits `tools:` as a comma list, `[a, b]`, or `*`/empty (all). */
export function parseToolList(raw: string | string[] | undefined): string[] | null {
  if (raw === undefined) return null;
  const items = (Array.isArray(raw) ? raw : raw.replace(/^\[|\]$/g, "").split(","))
    .map((s) => s.trim().replace(/^(["'])(.*)\1$/, "$2")).filter(Boolean);
  if (items.length === 0 || (items.length === 1 && items[0] === "*")) return null;
  return items;
}

/** `tools:` followed by `- Read` lines (a YAML block list), which the line parser drops. */
function blockList(text: string, key: string): string[] | undefined {
  const src = text.replace(/\r\n/g, "\n");
  const m = new RegExp(`^${key}\\s*:\\s*\\n((?:[ \\t]+-[^\\n]*\\n?)+)`, "mi").exec(src);
  return m ? m[1].split("\n").map((l) => l.replace(/^\s*-\s*/, "")).filter(Boolean) : undefined;
}

/** One definition file as a type, or the reason it cannot be one. */
export function parseDefinition(
  path: string,
  text: string,
  source: "workspace" | "user",
): SubagentDef | { problem: string } {
  const parts = splitFrontmatter(text);
  if (!parts) return { problem: "the frontmatter starts with --- but never ends" };
  const name = (parts.meta.name || basename(path).replace(/\.md$/i, "")).toLowerCase();
  if (!NAME_RE.test(name)) {
    return { problem: `"${name}" is not a valid type name (a-z, 0-9, _ and -, at most 64)` };
  }
  const prompt = parts.body.trim();
  if (!prompt) return { problem: "the definition has no instructions (the text after ---)" };
  const head = text.slice(0, text.length - parts.body.length);
  const tools = parseToolList(blockList(head, "tools") ?? parts.meta.tools);
  const model = parts.meta.model && parts.meta.model !== "inherit" ? parts.meta.model : null;
  const firstLine = prompt.split("\n").find((l) => l.trim())?.trim() ?? "";
  return {
    name,
    description: (parts.meta.description || firstLine.replace(/^#+\s*/, "")).slice(0, 300),
    tools,
    model,
    prompt,
    source,
    path,
  };
}

export type DefDir = DefinitionDir;

/** The folders searched for a workspace, highest precedence first. */
export const definitionDirs = (workspace: string, dataHome: string, userHome?: string): DefDir[] =>
  agentDirs("agents", workspace, dataHome, userHome);

/** The built-ins plus the definitions found in `dirs` (earlier folders win). */
export async function loadCatalog(dirs: DefDir[]): Promise<SubagentCatalog> {
  const problems: DefProblem[] = [];
  const users = new Map<string, SubagentDef>();
  for (const d of dirs) {
    const files = await readDefinitionFiles(d, problems, {
      files: SUBAGENT_LIMITS.filesPerDir,
      bytes: SUBAGENT_LIMITS.fileBytes,
      what: "files",
    });
    for (const f of files) {
      const def = parseDefinition(f.path, f.text, d.source);
      if ("problem" in def) problems.push({ path: f.path, message: def.problem });
      else if (users.has(def.name)) {
        problems.push({
          path: f.path,
          message: `"${def.name}" is also defined in ${users.get(def.name)!.path}, which is used`,
        });
      } else users.set(def.name, def);
    }
  }
  const defs = [
    ...BUILTIN_SUBAGENTS.filter((b) => !users.has(b.name)),
    ...users.values(),
  ];
  return {
    defs,
    problems,
    get(name) {
      const key = name.trim().toLowerCase();
      return defs.find((d) => d.name === key) ??
        (Object.hasOwn(ALIASES, key) ? defs.find((d) => d.name === ALIASES[key]) : undefined);
    },
  };
}

/** The list of types appended to the `agent` tool's description. */
export function describeTypes(catalog: SubagentCatalog): string {
  const lines = catalog.defs.map((d) => {
    const tools = d.tools ? d.tools.join(", ") : "all tools";
    return `- ${d.name}: ${d.description} (tools: ${tools})`;
  });
  return `Available subagent_type values:\n${lines.join("\n")}`;
}
