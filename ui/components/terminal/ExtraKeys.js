/**
 * The phone's extra-keys row under the terminal: Esc, Tab, a sticky Ctrl (the next key
 * typed is sent as Ctrl+key), arrows, | and ~. Pressing a key keeps the focus (and the
 * on-screen keyboard) in the terminal.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { ctrlArmed, sendInput } from "../../state/terminal.js";
import { shown } from "./XtermView.js";

/** Arrow keys follow the terminal's cursor-key mode (vi, less switch to "application"). */
const arrow = (/** @type {string} */ c) =>
  (shown.term?.modes.applicationCursorKeysMode ? "\x1bO" : "\x1b[") + c;

const KEYS = /** @type {const} */ ([
  { key: "esc", name: "terminal.key.esc", label: "Esc", data: () => "\x1b" },
  { key: "tab", name: "terminal.key.tab", label: "Tab", data: () => "\t" },
  { key: "ctrl", name: "terminal.key.ctrl", label: "Ctrl", data: () => "" },
  { key: "left", name: "terminal.key.left", label: "←", data: () => arrow("D") },
  { key: "up", name: "terminal.key.up", label: "↑", data: () => arrow("A") },
  { key: "down", name: "terminal.key.down", label: "↓", data: () => arrow("B") },
  { key: "right", name: "terminal.key.right", label: "→", data: () => arrow("C") },
  { key: "pipe", name: "terminal.key.pipe", label: "|", data: () => "|" },
  { key: "tilde", name: "terminal.key.tilde", label: "~", data: () => "~" },
]);

export function ExtraKeys() {
  const press = (/** @type {typeof KEYS[number]} */ k) => {
    if (!shown.term) return;
    if (k.key === "ctrl") ctrlArmed.value = !ctrlArmed.value;
    else sendInput(shown.id, k.data()); // an armed Ctrl applies (and is released) there
    shown.term.focus();
  };
  return html`
    <div class="term-keys" role="toolbar" aria-label=${t("terminal.extraKeys")}>
      ${KEYS.map((k) =>
        html`
          <button
            type="button"
            class=${`term-key${k.key === "ctrl" && ctrlArmed.value ? " on" : ""}`}
            data-testid=${`terminal-key-${k.key}`}
            aria-label=${t(k.name)}
            aria-pressed=${k.key === "ctrl" ? (ctrlArmed.value ? "true" : "false") : undefined}
            onPointerDown=${(/** @type {PointerEvent} */ e) => e.preventDefault()}
            onClick=${() => press(k)}
          >
            ${k.label}
          </button>
        `
      )}
    </div>
  `;
}
