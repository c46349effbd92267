/**
 * One assistant file: `---` frontmatter (name, description, icon, model as
 * `provider/model`, effort, skills and mcpServers as `[a, b]` or `a, b`) and the
 * persona as the body. Parsing reports what is wrong instead of guessing; rendering
 * writes the same shape back.
 */
import {
  type Assistant,
  ASSISTANT_ID_RE,
  ASSISTANT_LIMITS,
  type AssistantInput,
} from "../../../protocol/assistants.ts";
import { type Effort, EFFORT_LEVELS } from "../../../protocol/constants.ts";
import { splitFrontmatter } from "../../commands/custom.ts";

const KNOWN_KEYS = new Set([
  "name",
  "description",
  "icon",
  "emoji",
  "model",
  "effort",
  "skills",
  "mcpservers",
]);

/** `[a, b]`, `a, b` or empty → items (each checked). */
function parseList(raw: string | undefined, key: string): string[] | string {
  if (raw === undefined) return [];
  const items = raw.trim().replace(/^\[|\]$/g, "").split(",")
    .map((s) => s.trim().replace(/^(["'])(.*)\1$/, "$2")).filter(Boolean);
  if (items.length > ASSISTANT_LIMITS.listItems) {
    return `${key} lists ${items.length} items; at most ${ASSISTANT_LIMITS.listItems}`;
  }
  const bad = items.find((s) => s.length > ASSISTANT_LIMITS.listItemChars || /\s/.test(s));
  return bad !== undefined ? `${key}: "${bad.slice(0, 80)}" is not a valid name` : items;
}

/** The file's text as an assistant, or what is wrong with it. */
export function parseAssistantFile(
  id: string,
  path: string,
  text: string,
): Assistant | { problem: string } {
  if (!ASSISTANT_ID_RE.test(id)) {
    return { problem: `"${id}" is not a valid id (a-z, 0-9, _ and -, at most 48)` };
  }
  const parts = splitFrontmatter(text);
  if (!parts) return { problem: "the frontmatter starts with --- but never ends" };
  const m = parts.meta;
  const unknown = Object.keys(m).find((k) => !KNOWN_KEYS.has(k));
  if (unknown) return { problem: `unknown frontmatter key "${unknown}"` };
  const name = (m.name ?? "").trim() || id;
  if (name.length > ASSISTANT_LIMITS.nameChars) {
    return { problem: `the name is longer than ${ASSISTANT_LIMITS.nameChars} characters` };
  }
  const description = (m.description ?? "").trim();
  if (description.length > ASSISTANT_LIMITS.descriptionChars) {
    return {
      problem: `the description is longer than ${ASSISTANT_LIMITS.descriptionChars} characters`,
    };
  }
  const icon = (m.icon ?? m.emoji ?? "").trim();
  if (icon.length > ASSISTANT_LIMITS.iconChars) {
    return { problem: `the icon is longer than ${ASSISTANT_LIMITS.iconChars} characters` };
  }
  let model: Assistant["model"] = null;
  if (m.model && m.model !== "inherit") {
    const slash = m.model.indexOf("/");
    if (slash <= 0 || slash === m.model.length - 1 || m.model.length > 265) {
      return { problem: `model "${m.model.slice(0, 80)}" is not written as provider/model` };
    }
    model = { providerId: m.model.slice(0, slash), modelId: m.model.slice(slash + 1) };
  }
  let effort: Effort | null = null;
  if (m.effort) {
    if (!(EFFORT_LEVELS as readonly string[]).includes(m.effort)) {
      return {
        problem: `effort "${m.effort.slice(0, 40)}" is not one of ${EFFORT_LEVELS.join(", ")}`,
      };
    }
    effort = m.effort as Effort;
  }
  const skills = parseList(m.skills, "skills");
  if (typeof skills === "string") return { problem: skills };
  const mcpServers = parseList(m.mcpservers, "mcpServers");
  if (typeof mcpServers === "string") return { problem: mcpServers };
  const persona = parts.body.trim();
  if (persona.length > ASSISTANT_LIMITS.personaChars) {
    return { problem: `the persona is longer than ${ASSISTANT_LIMITS.personaChars} characters` };
  }
  return {
    id,
    name,
    description,
    icon,
    model,
    effort,
    skills,
    mcpServers,
    persona,
    builtin: false,
    path,
  };
}

/** A frontmatter value on one line (line breaks would end the value). */
const oneLine = (s: string) => s.replace(/[\r\n]+/g, " ").trim();

/** The file text for an assistant (validated input; round-trips through the parser). */
export function renderAssistantFile(a: AssistantInput): string {
  const lines = ["---", `name: ${oneLine(a.name)}`];
  if (a.description.trim()) lines.push(`description: ${oneLine(a.description)}`);
  if (a.icon.trim()) lines.push(`icon: ${oneLine(a.icon)}`);
  if (a.model) lines.push(`model: ${oneLine(a.model.providerId)}/${oneLine(a.model.modelId)}`);
  if (a.effort) lines.push(`effort: ${a.effort}`);
  if (a.skills.length) lines.push(`skills: [${a.skills.join(", ")}]`);
  if (a.mcpServers.length) lines.push(`mcpServers: [${a.mcpServers.join(", ")}]`);
  lines.push("---", "");
  return `${lines.join("\n")}${a.persona.trim()}\n`;
}
