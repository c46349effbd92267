/**
 * The composer's ✨ button: rewrites the draft with the model (a spinner meanwhile);
 * after it, an Undo button that puts back the exact previous text. Disabled for an
 * empty draft or a slash command. On a phone the pair sits at the right end of the
 * text box instead of the toolbar, which has no room left for it.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { connState } from "../../state/connection.js";
import {
  enhanceBlock,
  enhanceDraft,
  enhanceUndo,
  enhancing,
  undoEnhance,
} from "../../state/enhance.js";
import { composerText } from "../../state/ui.js";
import { IconSparkles, IconUndo } from "../skills/SkillIcons.js";

export function EnhanceButton() {
  const busy = enhancing.value;
  const label = busy ? t("enhance.busy") : t("enhance.button");
  return html`
    <span class="enhance-slot">
    <button
      type="button"
      class=${`icon-btn enhance-btn${busy ? " enhance-busy" : ""}`}
      data-testid="enhance"
      aria-label=${label}
      title=${label}
      aria-busy=${busy ? "true" : "false"}
      disabled=${busy || connState.value !== "open" || enhanceBlock(composerText.value) !== ""}
      onClick=${enhanceDraft}
    >
      <${IconSparkles} size=${18} />
    </button>
    ${enhanceUndo.value !== null && !busy &&
      html`
        <button
          type="button"
          class="icon-btn enhance-undo"
          data-testid="enhance-undo"
          aria-label=${t("enhance.undo")}
          title=${t("enhance.undo")}
          onClick=${undoEnhance}
        >
          <${IconUndo} size=${18} />
        </button>
      `}
    </span>
  `;
}
