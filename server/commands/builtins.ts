/**
 * The built-in slash commands, as the `/` menu lists them. Two kinds:
 * - prompt commands (`/init`, `/review`) become a prompt the model receives instead of the typed
 *   text ({@link builtinPrompt});
 * - local commands (`/clear`, `/compact`, `/plan`, `/goal`, `/cost`, `/help`) act on the task
 *   without a turn of the model (local.ts).
 * Adding one = a row here, its name in `BUILTIN_COMMAND_NAMES`
 * (protocol/commands.ts) and a handler in local.ts (or a prompt in builtinPrompt).
 */
import type { CommandInfo } from "../../protocol/index.ts";
import initPrompt from "./init_prompt.md" with { type: "text" };

export const BUILTINS: readonly CommandInfo[] = [
  {
    name: "clear",
    source: "builtin",
    description:
      "Clear the conversation for the model: earlier messages stay visible but are no longer sent",
  },
  {
    name: "compact",
    source: "builtin",
    argHint: "[focus]",
    description:
      "Summarise the conversation so far to free context (optionally focused on a topic)",
  },
  {
    name: "init",
    source: "builtin",
    argHint: "[notes]",
    description: "Create or update AGENTS.md from the repository",
  },
  {
    name: "plan",
    source: "builtin",
    argHint: "[task]",
    description: "Switch the task to plan mode (read-only research, then a plan to approve)",
  },
  {
    name: "goal",
    source: "builtin",
    argHint: "[text|pause|resume|clear]",
    description: "Set, show, pause, resume or clear the task's goal (kept in every turn)",
  },
  {
    name: "cost",
    source: "builtin",
    description: "Show what the task has cost so far, by token kind and model",
  },
  {
    name: "model",
    source: "builtin",
    argHint: "[provider/model]",
    description: "Show the task's model, or switch it (the enabled models are listed)",
  },
  {
    name: "resume",
    source: "builtin",
    description: "List this project's recent tasks to go back to",
  },
  {
    name: "undo",
    source: "builtin",
    argHint: "[confirm]",
    description: "Rewind the files the last turn changed: a preview, then /undo confirm",
  },
  {
    name: "review",
    source: "builtin",
    argHint: "[focus]",
    description: "Review the working tree's changes and report findings (changes nothing)",
  },
  { name: "help", source: "builtin", description: "List the commands and @ mentions" },
];

export const isBuiltin = (name: string): boolean => BUILTINS.some((b) => b.name === name);

const REVIEW_PROMPT = `Review the changes in this repository's working tree.

1. Run \`git status\` and \`git diff HEAD\` (and read new untracked files) to see what changed.
2. Read enough of the surrounding code to judge each change.
3. Report findings, most important first: bugs, security problems, missing error handling,
   missing or broken tests, and unclear code. Give each one a file:line reference, say why it
   matters and what to do about it. Say plainly when you found nothing serious.

Do not change any file: this is a review, not a fix.`;

/** The prompt of a built-in prompt command, or null for the local ones. */
export function builtinPrompt(name: string, args: string): string | null {
  if (name === "review") {
    return args ? `${REVIEW_PROMPT}\n\nFocus on: ${args}` : REVIEW_PROMPT;
  }
  if (name !== "init") return null;
  const base = initPrompt.trim();
  return args ? `${base}\n\nAdditional instructions from the user:\n${args}` : base;
}
