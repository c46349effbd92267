/**
 * What the hooks of a turn reported — a hook that failed or timed out, workspace hooks
 * that did not run because they are not trusted, a prompt a hook blocked — shown on the
 * turn even when its steps are folded, in the reader's language (from `meta.code` and
 * `meta.params`; the English text of older entries otherwise).
 *
 * @typedef {import("../../../protocol/index.ts").Entry} Entry
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";

/**
 * @param {Entry} e
 * @returns {Record<string, string|number>}
 */
const paramsOf = (e) =>
  e.meta.params && typeof e.meta.params === "object" ? /** @type {any} */ (e.meta.params) : {};

/**
 * The sentence(s) of a notice.
 * @param {Entry} e
 */
export function noteText(e) {
  const code = typeof e.meta.code === "string" ? e.meta.code : "";
  const params = paramsOf(e);
  if (!code) return e.parts.map((p) => p.text).join("\n");
  const out = [t(/** @type {any} */ (`hooks.note.${code}`), params)];
  if (Number(params.kept) > 0) out.push(t("hooks.note.kept", params));
  if (code === "untrusted" || code === "changed") out.push(t("hooks.note.review"));
  return out.join(" ");
}

/**
 * A new worktree's setup command: running, done or failed, with its output.
 * @param {{entry: Entry}} props
 */
function SetupNote({ entry: e }) {
  const state = e.status === "streaming" ? "running" : e.meta.ok ? "done" : "failed";
  return html`
    <li class="hook-note setup-note" key=${e.id} data-testid="setup-note" data-state=${state}>
      <span class="hook-note-label">${t("worktree.setup")}</span>
      <span class="hook-note-text">${t(/** @type {any} */ (`worktree.setup.${state}`))}</span>
      <code class="hook-note-command">${String(e.meta.command ?? "")}</code>
      ${state !== "running" &&
        html`
          <details open=${state === "failed"}>
            <summary>${t("worktree.setup.output")}</summary>
            <pre class="hook-note-stderr">${e.parts.map((p) => p.text).join("\n")}</pre>
          </details>
        `}
    </li>
  `;
}

/** @param {{entries: Entry[]}} props */
export function HookNotes({ entries }) {
  return html`
    <ul class="hook-notes" data-testid="hook-notes">
      ${entries.map((e) => {
        if (e.meta.kind === "setup") return html`<${SetupNote} entry=${e} />`;
        const stderr = String(paramsOf(e).stderr ?? "");
        return html`
          <li class="hook-note" key=${e.id} data-testid="hook-note" data-level=${e.meta.level}>
            <span class="hook-note-label">${t("hooks.note")}</span>
            <span class="hook-note-text">${noteText(e)}</span>
            ${stderr && html`<pre class="hook-note-stderr">${stderr}</pre>`}
            ${e.meta.command &&
              html`<code class="hook-note-command">${String(e.meta.command)}</code>`}
          </li>
        `;
      })}
    </ul>
  `;
}
