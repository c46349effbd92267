/**
 * The composer's option toolbar: model, reasoning effort, approval mode, a "no sandbox"
 * warning while the server has none, the assistant (phones; the header has it on wide screens), the background-work badge and
 * the context ring.
 */
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { ApprovalMenu } from "./ApprovalMenu.js";
import { SandboxBadge } from "./SandboxBadge.js";
import { EffortMenu } from "./EffortMenu.js";
import { ModelMenu } from "./ModelMenu.js";
import { AssistantChip } from "./assistants/AssistantChip.js";
import { ContextRing } from "./search/ContextRing.js";
import { backgroundRunning } from "../state/subagents.js";
import { runningJobs } from "../state/jobs.js";
import { currentId } from "../state/tasks.js";
import { lazy } from "./lazy.js";

/** Shown only while background work runs: a chunk of its own. */
const BackgroundBadge = lazy(() => import("./subagents/BackgroundBadge.js"), "BackgroundBadge");

export function ComposerTools() {
  return html`
    <div class="composer-tools" role="toolbar" aria-label=${t(
      "tools.label",
    )} data-testid="composer-tools">
      <${ModelMenu} />
      <${EffortMenu} />
      <${ApprovalMenu} />
      <${SandboxBadge} />
      <${AssistantChip} place="composer" />
      ${currentId.value && backgroundRunning.value.length + runningJobs.value.length > 0 &&
        html`<${BackgroundBadge} />`}
      <${ContextRing} />
    </div>
  `;
}
