/**
 * The four built-in assistants: general (no persona: the agent as it is),
 * coder, writer, translator. Read-only; the Assistants page duplicates one to change it.
 */
import type { Assistant } from "../../../protocol/assistants.ts";
import coderPersona from "./prompts/coder.md" with { type: "text" };
import writerPersona from "./prompts/writer.md" with { type: "text" };
import translatorPersona from "./prompts/translator.md" with { type: "text" };

const builtin = (a: Pick<Assistant, "id" | "name" | "description" | "icon" | "persona">) =>
  Object.freeze({
    ...a,
    persona: a.persona.trim(),
    model: null,
    effort: null,
    skills: [],
    mcpServers: [],
    builtin: true,
  });

export const BUILTIN_ASSISTANTS: readonly Assistant[] = Object.freeze([
  builtin({
    id: "general",
    name: "General",
    description: "The agent as it is, without a persona.",
    icon: "🤖",
    persona: "",
  }),
  builtin({
    id: "coder",
    name: "Coder",
    description: "A senior engineer: careful, tested, convention-following code.",
    icon: "🧑‍💻",
    persona: coderPersona,
  }),
  builtin({
    id: "writer",
    name: "Writer",
    description: "Clear documents, READMEs and explanations for the intended reader.",
    icon: "✍️",
    persona: writerPersona,
  }),
  builtin({
    id: "translator",
    name: "Translator",
    description: "Faithful, idiomatic translation that keeps formatting and code.",
    icon: "🌐",
    persona: translatorPersona,
  }),
]);

export const isBuiltinId = (id: string): boolean => BUILTIN_ASSISTANTS.some((a) => a.id === id);
