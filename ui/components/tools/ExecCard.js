/**
 * exec_command: `$ command` in the head with the exit code (or timed out / stopped /
 * signal) as a badge; expanded, the output box (follows the tail), the working folder
 * and the sandbox the command really ran in, and any remarks of the tool.
 *
 * @typedef {import("./ToolCard.js").CardProps} CardProps
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { exitBadge, resultMeta, resultText, splitExecOutput } from "../../state/tool_model.js";
import { CardShell } from "./CardShell.js";
import { ExecOutput } from "./ExecOutput.js";
import { IconTerminal } from "./ToolIcons.js";

/** @param {CardProps} props */
export function ExecCard({ name, args, result, status, ms, approval }) {
  const meta = resultMeta(result);
  const command = String(args.command ?? "");
  const badge = result ? exitBadge(meta) : null;
  const { output, notes } = splitExecOutput(resultText(result));
  const hasRun = typeof meta.exitCode === "number" || meta.timedOut || meta.stopped ||
    typeof meta.signal === "string";
  const body = result
    ? () =>
      html`
        <div class="exec-body">
          ${hasRun
            ? html`<${ExecOutput} text=${output} />`
            : html`<pre class="tool-out tool-out-error" data-testid="tool-output">${
              resultText(result)
            }</pre>`}
          ${notes.map((n) => html`<p class="exec-note">${n}</p>`)}
          ${(meta.cwd || meta.sandbox) &&
            html`
              <p class="exec-meta">
                ${meta.cwd && html`<span>${t("tool.cwd", { cwd: meta.cwd })}</span>`}
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
      status=${status}
      summary=${html`<span class="exec-cmd"><${IconTerminal} size=${13} /><span
        class="exec-dollar"
        aria-hidden="true"
      >$</span>${command}</span>`}
      badges=${badge &&
        html`<span class=${`tool-badge tone-${badge.tone}`} data-testid="exit-badge">${
          t(/** @type {any} */ (badge.key), badge.params)
        }</span>`}
      ms=${ms}
      approval=${approval}
      open=${badge?.tone === "bad"}
      body=${body}
    />
  `;
}
