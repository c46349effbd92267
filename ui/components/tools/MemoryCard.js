/**
 * The `memory` tool in the timeline: the action and what it was about in the head, an
 * "Unreviewed" badge for a proposal the user still has to accept, and the result with
 * a button to the Memory page (where proposals are accepted).
 *
 * @typedef {import("./card_props.js").CardProps} CardProps
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { resultMeta, resultText } from "../../state/tool_model.js";
import { openSettings, settingsTab } from "../../state/settings.js";
import { showMemoryTab } from "../../state/memory.js";
import { currentTask } from "../../state/tasks.js";
import { CardShell } from "./CardShell.js";

/** @param {CardProps} props */
export function MemoryCard({ name, args, result, status, ms, approval, receiving }) {
  const a = /** @type {Record<string, unknown>} */ (args);
  const m = resultMeta(result, ["memory"]).memory;
  const about = String(a.title ?? a.id ?? a.query ?? "");
  const summary = `${String(a.action ?? "")}${about ? ` · ${about}` : ""}`;
  const open = () => {
    showMemoryTab(m?.scope ?? "global", currentTask.value?.projectPath ?? null);
    settingsTab.value = "memory";
    openSettings();
  };
  return html`
    <${CardShell}
      name=${name}
      status=${status}
      summary=${summary}
      badges=${m?.unreviewed &&
        html`<span class="badge memory-unreviewed" data-testid="memory-card-unreviewed">${
          t("memory.unreviewed")
        }</span>`}
      ms=${ms}
      approval=${approval}
      receiving=${receiving}
      body=${() =>
        html`
          <pre class=${status === "failed" ? "tool-out tool-out-error" : "tool-out"}
            data-testid="tool-output">${result
              ? resultText(result)
              : JSON.stringify(args, null, 2)}</pre>
          ${m?.scope &&
            html`
              <div class="memory-card-actions">
                <button type="button" class="btn btn-small" data-testid="memory-card-open"
                  onClick=${open}>${t("memory.openPage")}</button>
              </div>
            `}
        `}
    />
  `;
}
