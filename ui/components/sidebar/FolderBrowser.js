/**
 * "Add project": a folder browser over the server's file system (the server may be
 * another machine than this browser). A path field (Enter opens it; `~` = home), Up,
 * Home, the system's folder picker in the desktop window, a hidden-folders toggle and the sub-folders of the folder shown; "Add this
 * folder" adds it. Every server error is shown in the dialog as written.
 *
 * @typedef {import("../../../protocol/index.ts").DirEntry} DirEntry
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { addProject, listDirs, projects } from "../../state/projects.js";
import { Dialog } from "../interact/Dialog.js";
import { errorCode } from "../../state/connection.js";
import { IconFolder, IconHome, IconUp } from "./icons.js";

/** @typedef {{path: string, parent: string|null, home: string, dirs: DirEntry[], truncated: boolean}} Listing */

/**
 * The desktop window's own folder picker, when the page runs in the native window (it
 * is on the server's machine there); null in a browser.
 * @returns {((title: string) => Promise<string|null>)|null}
 */
function nativeFolderPicker() {
  const native =
    /** @type {{reinagentNative?: {pickFolder?: (t: string) => Promise<string|null>}}} */ (
      /** @type {unknown} */ (globalThis)
    ).reinagentNative;
  return typeof native?.pickFolder === "function" ? native.pickFolder : null;
}

/** @param {{onClose: () => void, onAdded?: (path: string) => void}} props */
export function FolderBrowser({ onClose, onAdded }) {
  const [listing, setListing] = useState(/** @type {Listing|null} */ (null));
  const [input, setInput] = useState("~");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [showHidden, setShowHidden] = useState(false);
  const gen = useRef(0);
  /** The path field was focused or typed in: a listing (home's first) must not overwrite it. */
  const typed = useRef(false);
  const inputRef = useRef(/** @type {HTMLInputElement|null} */ (null));
  const pickNative = nativeFolderPicker();

  /** `navigate`: the user chose where to go, so the listing's path replaces what was typed. */
  const open = async (/** @type {string} */ path, navigate = true) => {
    const mine = ++gen.current;
    if (navigate) typed.current = false;
    setBusy(true);
    try {
      const r = /** @type {Listing} */ (await listDirs(path));
      if (mine !== gen.current) return;
      setListing(r);
      if (!typed.current) setInput(r.path);
      setError("");
    } catch (e) {
      if (mine === gen.current) setError(/** @type {Error} */ (e).message);
    } finally {
      if (mine === gen.current) setBusy(false);
    }
  };

  // Runs after the first paint: a path typed before it must survive the home listing.
  useEffect(() => {
    open("~", false);
  }, []);

  /** The folder the server found too wide, waiting for "Add anyway". */
  const [wide, setWide] = useState("");
  const choose = async (confirmWide = false) => {
    const path = input.trim();
    if (!path) return;
    setBusy(true);
    try {
      const p = await addProject(path, confirmWide);
      onAdded?.(p.path);
      onClose();
    } catch (e) {
      setError(/** @type {Error} */ (e).message);
      setWide(errorCode(e) === "needs_confirmation" ? path : "");
      setBusy(false);
    }
  };

  const dirs = listing ? listing.dirs.filter((d) => showHidden || !d.hidden) : [];
  const hiddenCount = listing
    ? listing.dirs.length - listing.dirs.filter((d) => !d.hidden).length
    : 0;
  const known = new Set(projects.value.map((p) => p.path));
  const shownIsProject = listing !== null && input.trim() === listing.path &&
    known.has(listing.path);

  return html`
    <${Dialog}
      title=${t("projects.browserTitle")}
      testid="folder-browser"
      onClose=${onClose}
      footer=${html`
        <button type="button" class="btn" data-testid="folder-cancel" onClick=${onClose}>
          ${t("task.cancel")}
        </button>
        <button
          type="button"
          class="btn btn-accent"
          data-testid="folder-choose"
          disabled=${busy || !input.trim() || shownIsProject}
          onClick=${() => choose()}
        >
          ${shownIsProject ? t("projects.alreadyAdded") : t("projects.choose")}
        </button>
      `}
    >
      <form
        class="fb-path"
        onSubmit=${(/** @type {Event} */ e) => {
          e.preventDefault();
          open(input.trim() || "~");
        }}
      >
        <label class="sr-only" for="fb-path-input">${t("projects.pathLabel")}</label>
        <input
          id="fb-path-input"
          ref=${inputRef}
          class="input fb-input"
          data-testid="folder-path"
          value=${input}
          spellcheck="false"
          autocomplete="off"
          autocapitalize="off"
          placeholder=${t("projects.pathPlaceholder")}
          onFocus=${() => {
            // From the first focus on, the field is the user's: a listing arriving between a
            // select-all and the typing (or a paste) would otherwise put its path in front
            // ("/root" + "/tmp/x" → "/root/tmp/x").
            typed.current = true;
          }}
          onInput=${(/** @type {InputEvent} */ e) => {
            typed.current = true;
            setInput(/** @type {HTMLInputElement} */ (e.target).value);
          }}
        />
        <button type="submit" class="btn" data-testid="folder-go">${t("projects.go")}</button>
      </form>
      <div class="fb-tools">
        <button
          type="button"
          class="icon-btn"
          data-testid="folder-up"
          disabled=${!listing?.parent || busy}
          aria-label=${t("projects.up")}
          title=${t("projects.up")}
          onClick=${() => listing?.parent && open(listing.parent)}
        >
          <${IconUp} size=${16} />
        </button>
        <button
          type="button"
          class="icon-btn"
          data-testid="folder-home"
          aria-label=${t("projects.home")}
          title=${t("projects.home")}
          disabled=${busy}
          onClick=${() => open("~")}
        >
          <${IconHome} size=${16} />
        </button>
        ${pickNative &&
          html`
            <button
              type="button"
              class="icon-btn"
              data-testid="folder-native-pick"
              aria-label=${t("projects.systemPicker")}
              title=${t("projects.systemPicker")}
              disabled=${busy}
              onClick=${async () => {
                const path = await pickNative(t("projects.browserTitle"));
                if (path) open(path); // listed (and checked) by the server like a typed path
              }}
            >
              <${IconFolder} size=${16} />
            </button>
          `}
        <span class="fb-current" title=${listing?.path ?? ""}>
          ${listing ? `\u200e${listing.path}\u200e` : ""}
        </span>
        <label class="fb-hidden">
          <input
            type="checkbox"
            data-testid="folder-show-hidden"
            checked=${showHidden}
            onChange=${(/** @type {Event} */ e) =>
              setShowHidden(/** @type {HTMLInputElement} */ (e.target).checked)}
          />
          ${t("projects.showHidden", { n: hiddenCount })}
        </label>
      </div>
      ${error &&
        html`<p class="fb-error" role="alert" data-testid="folder-error">${error}</p>`}
      ${wide && wide === input.trim() &&
        html`
          <p class="fb-wide">
            <button
              type="button"
              class="btn btn-danger"
              data-testid="folder-add-anyway"
              disabled=${busy}
              onClick=${() => choose(true)}
            >
              ${t("projects.addAnyway")}
            </button>
          </p>
        `}
      <ul class="fb-list" role="list" data-testid="folder-list" aria-busy=${busy
        ? "true"
        : "false"}>
        ${listing && dirs.length === 0 &&
          html`<li class="fb-empty">${t("projects.noSubfolders")}</li>`}
        ${dirs.map((d) =>
          html`
            <li key=${d.path}>
              <button
                type="button"
                class=${`fb-dir${d.hidden ? " hidden-dir" : ""}`}
                data-testid="folder-entry"
                data-name=${d.name}
                onClick=${() => open(d.path)}
              >
                <${IconFolder} size=${16} />
                <span class="fb-name">${d.name}</span>
                ${known.has(d.path) &&
                  html`<span class="fb-badge">${t("projects.isProject")}</span>`}
              </button>
            </li>
          `
        )}
        ${listing?.truncated && html`<li class="fb-empty">${t("projects.truncated")}</li>`}
      </ul>
    <//>
  `;
}
