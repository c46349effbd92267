/**
 * Settings → Hooks: every config file with hooks (yours and each project's), where it
 * is, whether its hooks run (trust state) and what they run; Trust for a project's
 * hooks that wait for it. Hooks are edited in the files themselves.
 *
 * @typedef {import("../../../protocol/index.ts").HookSource} HookSource
 */
import { useEffect, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { hookSources, loadHookSources, trustHooks } from "../../state/hooks.js";
import { SourceHooks } from "./HookList.js";

/** @param {{source: HookSource}} props */
function SourceCard({ source }) {
  const [error, setError] = useState(/** @type {string|null} */ (null));
  const canTrust = source.state === "untrusted" || source.state === "changed";
  return html`
    <li class="hook-source" data-testid="hook-source" data-kind=${source.kind}
      data-state=${source.state}>
      <div class="hook-source-head">
        <span class="badge">${t(/** @type {const} */ (`hooks.kind.${source.kind}`))}</span>
        <span class=${`badge hook-state hook-state-${source.state}`} data-testid="hook-state">${t(
          /** @type {const} */ (`hooks.state.${source.state}`),
        )}</span>
        <span class="hook-path" title=${source.path}>${source.path}</span>
      </div>
      ${source.error && html`<p class="form-error" data-testid="hook-error">${source.error}</p>`}
      <${SourceHooks} source=${source} />
      ${error && html`<p class="form-error" role="alert">${error}</p>`}
      ${canTrust &&
        html`
          <div class="field-row">
            <button type="button" class="btn btn-accent btn-small" data-testid="hook-source-trust"
              onClick=${async () => setError(await trustHooks(source))}>${t("hooks.trust")}</button>
          </div>
        `}
    </li>
  `;
}

export function HooksSettings() {
  useEffect(() => void loadHookSources(), []);
  const sources = hookSources.value;
  return html`
    <section class="settings-section hooks-pane" data-testid="hooks-pane"
      aria-labelledby="hooks-title">
      <h2 id="hooks-title" class="provider-title">${t("hooks.title")}</h2>
      <p class="settings-note">${t("hooks.intro")}</p>
      ${sources === null
        ? html`<p class="settings-note">${t("settings.loading")}</p>`
        : sources.length === 0
        ? html`
          <div class="hooks-empty" data-testid="hooks-empty">
            <p class="settings-note">${t("hooks.empty")}</p>
            <pre class="tool-out hooks-example">${EXAMPLE}</pre>
          </div>
        `
        : html`
          <ul class="hook-sources" data-testid="hook-sources">
            ${sources.map((s) => html`<${SourceCard} key=${s.path} source=${s} />`)}
          </ul>
        `}
    </section>
  `;
}

const EXAMPLE = `{
  "hooks": [
    { "event": "PreToolUse", "matcher": "exec_command",
      "command": "./scripts/check-command.sh", "timeoutMs": 10000 }
  ]
}`;
