/**
 * A tool call as a card chosen by the tool's kind: read/list, file
 * changes with diffs, commands, searches, web, the interactive tools (questions,
 * plan review, todos), or a generic card. While the call
 * waits for the user's approval, the card shows the Approval card (the list of
 * pending approvals is a signal, so only the cards re-render when it changes).
 *
 * @typedef {import("../../../protocol/index.ts").Part} Part
 * @typedef {import("../../../protocol/index.ts").Entry} Entry
 */
import { html } from "../../html.js";
import { callKey, liveByCall } from "../../state/approvals.js";
import { currentId } from "../../state/tasks.js";
import { callStatus, partialArgs, toolKind } from "../../state/tool_model.js";
import { ChangeCard } from "./ChangeCard.js";
import { ExecCard } from "./ExecCard.js";
import { GenericCard } from "./GenericCard.js";
import { PlanCard } from "./PlanCard.js";
import { QuestionCard } from "./QuestionCard.js";
import { ReadCard } from "./ReadCard.js";
import { SearchCard } from "./SearchCard.js";
import { TodoCard } from "./TodoCard.js";
import { WebCard } from "./WebCard.js";
import { SubagentCard } from "../subagents/SubagentCard.js";
import { McpCard } from "./McpCard.js";
import { MemoryCard } from "./MemoryCard.js";
import { PatchCard } from "./PatchCard.js";
import { RefusalContext } from "./RefusalNote.js";
import { refusalOf } from "../../state/interact_model.js";

const CARDS = {
  read: ReadCard,
  list: ReadCard,
  change: ChangeCard,
  exec: ExecCard,
  search: SearchCard,
  web: WebCard,
  other: GenericCard,
};

/** Tools with a card of their own, whatever their permission kind. */
const BY_NAME = {
  ask_user_question: QuestionCard,
  exit_plan_mode: PlanCard,
  todo_write: TodoCard,
  agent: SubagentCard,
  subagent_output: SubagentCard,
  memory: MemoryCard,
  apply_patch: PatchCard,
};

/** @param {{part: Part, result?: Entry, live: boolean}} props */
export function ToolCard({ part, result, live }) {
  const data = part.data ?? {};
  const name = String(data.name ?? "?");
  const streaming = data.streaming === true;
  const args = data.args && typeof data.args === "object" ? data.args : {};
  const taskId = currentId.value;
  // Only a call of the running turn without a result can be the one waiting (call ids
  // may repeat across turns).
  const approval = live && !result && taskId
    ? liveByCall.value.get(callKey(taskId, String(data.id ?? "")))
    : undefined;
  const ms = Number(result?.meta?.durationMs);
  // While the model still streams the arguments (a whole file, say), show how much came
  // and what is already known (the path, the command).
  const argsText = String(data.argsText ?? "");
  const receiving = streaming ? argsText.length : undefined;
  const Card = Object.hasOwn(BY_NAME, name)
    ? BY_NAME[/** @type {keyof typeof BY_NAME} */ (name)]
    : name.startsWith("mcp__")
    ? McpCard
    : CARDS[toolKind(name)];
  const status = callStatus(result, live, !!approval);
  // Refused calls say why in the reader's language (plan and question cards do it
  // their own way).
  const refusal = status === "refused" && !Object.hasOwn(BY_NAME, name) ? refusalOf(result) : null;
  return html`
    <${RefusalContext.Provider} value=${refusal}>
      <${Card}
        name=${name}
        args=${streaming ? { ...partialArgs(argsText), ...args } : args}
        result=${result}
        status=${status}
        ms=${Number.isFinite(ms) ? ms : undefined}
        approval=${approval}
        receiving=${receiving}
        callId=${String(data.id ?? "")}
      />
      <//>
  `;
}
