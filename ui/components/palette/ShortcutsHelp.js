/**
 * The list of keyboard shortcuts (`?` outside text fields, or from the palette), with
 * rebinding: "Change" records the next chord (Esc cancels); a chord that would eat
 * typed text, that the browser owns, or that another shortcut has is refused with the
 * reason. Search and find keep their keys.
 */
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { chordOfEvent } from "../../state/palette_model.js";
import { closeOverlay, isMac } from "../../state/palette.js";
import { customised, rebind, resetBindings, shortcutList } from "../../state/shortcuts.js";
import { IconClose } from "../Icons.js";
import { useModalFocus } from "../useModalFocus.js";
import { Keys } from "./Keys.js";

/** @typedef {import("../../i18n/index.js").MsgKey} MsgKey */

/** @type {Record<string, MsgKey>} */
const LABEL = {
  palette: "palette.sc.palette",
  search: "palette.sc.search",
  find: "palette.sc.find",
  shortcuts: "palette.sc.shortcuts",
  prevQuestion: "palette.sc.prevQuestion",
  nextQuestion: "palette.sc.nextQuestion",
};

/** @type {Record<string, MsgKey>} */
const PROBLEM = {
  fixed: "palette.bind.fixed",
  invalid: "palette.bind.invalid",
  needsModifier: "palette.bind.needsModifier",
  reserved: "palette.bind.reserved",
  conflict: "palette.bind.conflict",
};

/**
 * Keys of other parts of the app, shown for completeness (they are not global).
 * @type {{label: MsgKey, keys: string}[]}
 */
const LOCAL = [
  { label: "palette.key.send", keys: "Enter" },
  { label: "palette.key.newline", keys: "Shift+Enter" },
  { label: "palette.key.history", keys: "ArrowUp" },
  { label: "palette.key.close", keys: "Escape" },
];

/**
 * Records the next chord while `id` is set: Escape cancels. Listens on the window in
 * the capture phase so that neither the dialog (Escape) nor a shortcut sees the keys;
 * a layout effect, so that it listens from the render that shows "Press the new keys".
 * @param {string|null} id
 * @param {(keys: string|null) => void} done null = cancelled
 */
function useRecorder(id, done) {
  useLayoutEffect(() => {
    if (!id) return;
    const onKey = (/** @type {KeyboardEvent} */ e) => {
      if (e.isComposing) return;
      e.preventDefault();
      e.stopPropagation();
      if (e.key === "Escape" && !e.ctrlKey && !e.metaKey && !e.altKey) return done(null);
      const keys = chordOfEvent(e, isMac);
      if (keys) done(keys);
    };
    addEventListener("keydown", onKey, true);
    return () => removeEventListener("keydown", onKey, true);
  }, [id]);
}

export function ShortcutsHelp() {
  const close = useRef(/** @type {HTMLButtonElement|null} */ (null));
  useModalFocus(close, closeOverlay);
  const [recording, setRecording] = useState(/** @type {string|null} */ (null));
  const [problem, setProblem] = useState(/** @type {{id: string, text: string}|null} */ (null));
  useRecorder(recording, (keys) => {
    const id = recording;
    setRecording(null);
    if (!id || keys === null) return;
    const p = rebind(id, keys);
    setProblem(
      p
        ? {
          id,
          text: t(PROBLEM[p.code], {
            keys: keys.replace("Mod", isMac ? "⌘" : "Ctrl"),
            other: p.with ? t(LABEL[p.with] ?? "palette.shortcuts") : "",
          }),
        }
        : null,
    );
  });
  return html`
    <div class="search-backdrop" data-testid="shortcuts-backdrop" onClick=${closeOverlay}>
      <div
        class="search-dialog pal-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        data-testid="shortcuts"
        onClick=${(/** @type {Event} */ e) => e.stopPropagation()}
      >
        <div class="search-head">
          <h2 id="shortcuts-title" class="pal-heading">${t("palette.shortcuts")}</h2>
          <button
            ref=${close}
            type="button"
            class="icon-btn"
            aria-label=${t("palette.close")}
            data-testid="shortcuts-close"
            onClick=${closeOverlay}
          >
            <${IconClose} />
          </button>
        </div>
        <div class="pal-scroll">
          <dl class="pal-shortcuts">
            ${shortcutList.value.map((s) =>
              html`
                <div class="pal-shortcut" data-testid="shortcut-row" data-shortcut=${s.id}>
                  <dt>
                    ${t(LABEL[s.id] ?? "palette.shortcuts")}
                    ${problem?.id === s.id &&
                      html`<span class="pal-bind-error" role="alert" data-testid="bind-error">${problem.text}</span>`}
                  </dt>
                  <dd>
                    ${recording === s.id
                      ? html`<span class="pal-recording" data-testid="bind-recording">${
                        t(
                          "palette.bind.press",
                        )
                      }</span>`
                      : html`<${Keys} keys=${s.keys} />`}
                    ${!s.fixed &&
                      html`
                        <button
                          type="button"
                          class="pal-bind"
                          data-testid="bind-change"
                          aria-label=${t("palette.bind.changeOf", {
                            name: t(LABEL[s.id] ?? "palette.shortcuts"),
                          })}
                          onClick=${() => {
                            setProblem(null);
                            setRecording(recording === s.id ? null : s.id);
                          }}
                        >
                          ${t(recording === s.id ? "palette.bind.cancel" : "palette.bind.change")}
                        </button>
                      `}
                  </dd>
                </div>
              `
            )}
          </dl>
          ${customised() &&
            html`
              <button
                type="button"
                class="pal-older"
                data-testid="bind-reset"
                onClick=${() => {
                  resetBindings();
                  setProblem(null);
                }}
              >
                ${t("palette.bind.reset")}
              </button>
            `}
          <h3 class="pal-sub">${t("palette.composerKeys")}</h3>
          <dl class="pal-shortcuts">
            ${LOCAL.map((s) =>
              html`
                <div class="pal-shortcut">
                  <dt>${t(s.label)}</dt>
                  <dd>
                    <${Keys} keys=${s.keys} />
                  </dd>
                </div>
              `
            )}
          </dl>
        </div>
        <p class="search-keys">${t("palette.shortcutsNote")}</p>
      </div>
    </div>
  `;
}
