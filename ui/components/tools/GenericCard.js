/**
 * Any other tool: the name, a one-line argument summary, and expanded the result text
 * (or, before a result exists, the arguments as JSON).
 *
 * @typedef {import("./card_props.js").CardProps} CardProps
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { argSummary } from "../../state/timeline_model.js";
import { resultText } from "../../state/tool_model.js";
import { CardShell } from "./CardShell.js";

/** @param {CardProps} props */
export function GenericCard({ name, args, result, status, ms, approval, receiving }) {
  const output = result ? resultText(result) || t("tool.noOutput") : JSON.stringify(args, null, 2);
  return html`
    <${CardShell}
      name=${name}
      status=${status}
      summary=${argSummary(args)}
      ms=${ms}
      approval=${approval}
      receiving=${receiving}
      body=${() =>
        html`
          <pre
            class=${status === "failed" ? "tool-out tool-out-error" : "tool-out"}
            data-testid="tool-output"
          >${output}</pre>
        `}
    />
  `;
}
