/**
 * exec_command: `$ command` in the head with the exit code (or timed out / stopped /
 * signal) as a badge; a command that did not succeed gets the failure mark, not the
 * check. Expanded: the output box (follows the tail; stderr marked), a line saying how
 * the command was ended (timeout, stop, signal, SIGKILL), the working folder and the
 * sandbox the command really ran in, and any remarks of the tool.
 *
 * @typedef {import("./card_props.js").CardProps} CardProps
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import {
  execRewindNotes,
  exitBadge,
  resultMeta,
  resultText,
  splitExecOutput,
} from "../../state/tool_model.js";
import { rewindReasonText } from "../interact/RewindDialog.js";
import { CardShell } from "./CardShell.js";
import { ExecOutput } from "./ExecOutput.js";
import { liveOutput } from "../../state/timeline.js";
import { execEnding, execFailed, resultSegments } from "../../state/exec_model.js";

/** @param {CardProps} props */
export function ExecCard({ name, args, result, status, ms, approval, receiving, callId }) {
  const meta = resultMeta(result, ["exec_command"]);
  const command = String(args.command ?? "");
  const badge = result ? exitBadge(meta) : null;
  // A non-zero exit is a result for the model (not a tool error) but a failure to see.
  const shown = status === "done" && result && execFailed(meta) ? "failed" : status;
  const ending = result ? execEnding(meta) : null;
  const segments = resultSegments(meta);
  const split = splitExecOutput(resultText(result));
  const { output } = split;
  const { notes, unrewindable } = execRewindNotes(split.notes, meta);
  // The workspace root goes without saying.
  const cwd = typeof meta.cwd === "string" && meta.cwd !== "." ? meta.cwd : "";
  const hasRun = typeof meta.exitCode === "number" || meta.timedOut || meta.stopped ||
    typeof meta.signal === "string";
  // While the command runs, its output streams in (the result replaces it).
  const live = !result && callId ? liveOutput.value.get(callId) : undefined;
  const body = live !== undefined
    ? () =>
      html`
        <div class="exec-body">
          <${ExecOutput} segments=${live} />
        </div>
      `
    : result
    ? () =>
      html`
        <div class="exec-body">
          ${hasRun
            ? html`<${ExecOutput} text=${output} segments=${segments} />`
            : html`<pre class="tool-out tool-out-error" data-testid="tool-output">${
              resultText(result)
            }</pre>`}
          ${ending &&
            html`<p class=${`exec-end exec-end-${ending.tone}`} data-testid="exec-ending">${
              t(/** @type {any} */ (ending.key), ending.params)
            }${ending.sigkill ? ` ${t("tool.end.sigkill")}` : ""}</p>`}
          ${notes.map((n) => html`<p class="exec-note">${n}</p>`)}
          ${unrewindable.length > 0 &&
            html`
              <div class="exec-note" data-testid="exec-unrewindable">
                ${t("tool.unrewindable", { n: unrewindable.length })}
                <ul>
                  ${unrewindable.map((u) =>
                    html`<li><code>${u.path}</code> — ${rewindReasonText(u)}</li>`
                  )}
                </ul>
              </div>
            `}
          ${(cwd || meta.sandbox) &&
            html`
              <p class="exec-meta">
                ${cwd && html`<span>${t("tool.cwd", { cwd })}</span>`}
                ${meta.sandbox &&
                  html`<span class="exec-sandbox" data-testid="exec-sandbox">${
                    t("tool.sandbox", { label: meta.sandbox })
                  }</span>`}
              </p>
            `}
        </div>
      `
    : null;
  return html`
    <${CardShell}
      name=${name}
      kind="exec"
      status=${shown}
      summary=${html`<span class="exec-cmd"><span class="exec-dollar">$</span>${command}</span>`}
      badges=${badge &&
        html`<span class=${`tool-badge tone-${badge.tone}`} data-testid="exit-badge">${
          t(/** @type {any} */ (badge.key), badge.params)
        }</span>`}
      ms=${ms}
      approval=${approval}
      receiving=${receiving}
      open=${badge?.tone === "bad" || live !== undefined}
      body=${body}
    />
  `;
}
