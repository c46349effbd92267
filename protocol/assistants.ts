/**
 * Assistants: personas for the main conversation. One is a Markdown file
 * `<data dir>/assistants/<id>.md` (frontmatter: name, description, icon, model, effort,
 * skills, mcpServers; body = the persona text put into the system prompt); four are
 * built in and read-only. A task uses one (its chip); a new task starts with the global
 * default. The bound model / effort / MCP servers are applied once, when a task starts
 * with the assistant or switches to it; later manual changes win.
 *
 * Ops: `assistants.list {}`, `assistants.save {assistant, create}` (custom only; a
 * built-in is duplicated under a new id), `assistants.delete {id}`,
 * `assistants.setDefault {id}`, `task.setAssistant {id, assistantId}`.
 * Changes are pushed on {@link ASSISTANTS_TOPIC} as `{kind: "list", list}`.
 */
import { arr, type Infer, nullable, obj, oneOf, type Schema, str } from "./schema.ts";
import { type Effort, EFFORT_LEVELS } from "./constants.ts";
import type { ModelRef, TaskSummary } from "./domain.ts";

export const ASSISTANT_LIMITS = {
  idChars: 48,
  nameChars: 80,
  descriptionChars: 300,
  iconChars: 8,
  personaChars: 24_000,
  /** One file, frontmatter included (a persona at the character limit in CJK fits). */
  fileBytes: 96 * 1024,
  /** Custom assistants read (files beyond are reported). */
  files: 64,
  listItems: 32,
  listItemChars: 64,
} as const;

/** A file name without `.md`: no dots, slashes or leading dash, so no path escape. */
export const ASSISTANT_ID_RE = /^[a-z0-9][a-z0-9_-]{0,47}$/;

/** The built-in assistant without a persona (a task without one behaves the same). */
export const GENERAL_ASSISTANT_ID = "general";

export const ASSISTANTS_TOPIC = "assistants";

export interface Assistant {
  id: string;
  name: string;
  description: string;
  /** An emoji (or a short text) shown on the chip. */
  icon: string;
  /** Applied once when a task starts with it; null = keep the task's / system default. */
  model: ModelRef | null;
  effort: Effort | null;
  /** Skill names (stored; applied by the skills feature). */
  skills: string[];
  /** MCP server ids the task uses (empty = all enabled servers). */
  mcpServers: string[];
  /** The persona text (may be empty: no persona section). */
  persona: string;
  builtin: boolean;
  /** The file of a custom assistant. */
  path?: string;
}

/** A file that could not be used: reported, never rewritten. */
export interface AssistantProblem {
  path: string;
  message: string;
}

export interface AssistantList {
  assistants: Assistant[];
  problems: AssistantProblem[];
  /** The global default (a new task starts with it). */
  defaultId: string;
  dir: string;
}

export type AssistantsEvent = { kind: "list"; list: AssistantList };

export const assistantIdSchema = str({
  min: 1,
  max: ASSISTANT_LIMITS.idChars,
  pattern: ASSISTANT_ID_RE,
});
const listItem = str({ min: 1, max: ASSISTANT_LIMITS.listItemChars, pattern: /^[^\s,]+$/ });

export const assistantSchema = obj({
  id: assistantIdSchema,
  name: str({ min: 1, max: ASSISTANT_LIMITS.nameChars }),
  description: str({ max: ASSISTANT_LIMITS.descriptionChars }),
  icon: str({ max: ASSISTANT_LIMITS.iconChars }),
  model: nullable(obj({
    providerId: str({ min: 1, max: 64 }),
    modelId: str({ min: 1, max: 200 }),
  })),
  effort: nullable(oneOf(EFFORT_LEVELS)),
  skills: arr(listItem, ASSISTANT_LIMITS.listItems),
  mcpServers: arr(listItem, ASSISTANT_LIMITS.listItems),
  persona: str({ max: ASSISTANT_LIMITS.personaChars }),
});
export type AssistantInput = Infer<typeof assistantSchema>;

export const ASSISTANT_OP_ARGS = {
  "assistants.list": obj({}),
  /** `create`: a new file (refused when the id exists); otherwise the custom one is replaced. */
  "assistants.save": obj({ assistant: assistantSchema, create: oneOf(["new", "replace"]) }),
  "assistants.delete": obj({ id: assistantIdSchema }),
  "assistants.setDefault": obj({ id: assistantIdSchema }),
  /** The task's assistant; its bound model / effort / MCP servers are applied now, once. */
  "task.setAssistant": obj({
    id: str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ }),
    assistantId: assistantIdSchema,
  }),
} satisfies Record<string, Schema>;

export interface AssistantOpResults {
  "assistants.list": AssistantList;
  "assistants.save": AssistantList;
  "assistants.delete": AssistantList;
  "assistants.setDefault": AssistantList;
  "task.setAssistant": { task: TaskSummary };
}
