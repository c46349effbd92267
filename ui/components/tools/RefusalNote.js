/**
 * Why a tool call was refused (approval gate, sandbox, restart), said in the reader's
 * language from the result's structured `meta.refusal` (the model got English text).
 * ToolCard provides the refusal of the call it shows; CardShell renders the note under
 * the head of any card, so every card family says it the same way.
 *
 * @typedef {import("../../state/interact_model.js").Refusal} Refusal
 * @typedef {import("../../i18n/index.js").MsgKey} MsgKey
 */
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { refusalMessage } from "../../state/interact_model.js";
import { IconHand } from "./ToolIcons.js";

/** The refusal of the card being rendered, or null. */
export const RefusalContext = createContext(/** @type {Refusal|null} */ (null));

/** The refusal line of the surrounding card, if its call was refused. */
export function RefusalNote() {
  const r = useContext(RefusalContext);
  if (!r) return null;
  const m = refusalMessage(r);
  // A mode is a code too: say its name in the reader's language.
  const params = typeof m.params.mode === "string"
    ? { ...m.params, mode: t(/** @type {MsgKey} */ (`approval.${m.params.mode}`)) }
    : m.params;
  return html`
    <p class="tool-refusal" data-testid="tool-refusal" data-code=${r.code}>
      <${IconHand} size=${13} />
      <span>${t(/** @type {any} */ (m.key), params)}</span>
    </p>
  `;
}
