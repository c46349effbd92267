/**
 * Settings → Plugins: every plugin folder found (the data folder's and each project's),
 * with its version, description, what it contributes, its switch (off until turned on)
 * and its state; a plugin's hooks are shown before they are trusted, and run only then.
 * What is wrong with a plugin (bad manifest, a refused link) is shown on its card.
 *
 * @typedef {import("../../../protocol/index.ts").PluginView} PluginView
 */
import { useEffect, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { loadPlugins, plugins, setPluginEnabled, trustPlugin } from "../../state/plugins.js";
import { Switch } from "../settings/controls.js";
import { HookList } from "../hooks/HookList.js";

/** @param {{p: PluginView}} props */
function PluginCard({ p }) {
  const [err, setErr] = useState(/** @type {string|null} */ (null));
  const unusable = p.state === "invalid" || p.state === "refused";
  const waits = p.state === "untrusted" || p.state === "changed";
  return html`
    <li class="hook-source plugin-card" data-testid="plugin-card" data-name=${p.name}
      data-state=${p.state} data-enabled=${p.enabled ? "true" : "false"}>
      <div class="plugin-head">
        <div class="plugin-title">
          <span class="mcp-id plugin-name">${p.name}</span>
          ${p.version && html`<span class="plugin-version">${p.version}</span>`}
          <span class="badge">${t(/** @type {const} */ (`plugins.scope.${p.scope}`))}</span>
          ${p.state !== "ok" &&
            html`
              <span class=${`badge plugin-state plugin-state-${p.state}`}
                data-testid="plugin-state">${t(
                  /** @type {const} */ (`plugins.state.${p.state}`),
                )}</span>
            `}
        </div>
        <${Switch}
          checked=${p.enabled}
          label=${t("plugins.enabled")}
          testid="plugin-enable"
          disabled=${unusable && !p.enabled}
          onChange=${async (/** @type {boolean} */ v) => setErr(await setPluginEnabled(p, v))}
        />
      </div>
      ${p.description && html`<div class="mcp-desc">${p.description}</div>`}
      <div class="hook-path" title=${p.path}>${p.path}</div>
      ${p.error && html`<p class="form-error" data-testid="plugin-error">${p.error}</p>`}
      ${(p.commandsDir || p.skillsDir) &&
        html`
          <ul class="plugin-parts">
            ${p.commandsDir &&
              html`<li><span class="plugin-part">${t("plugins.commands")}</span> <span
                class="hook-path">${p.commandsDir}</span></li>`}
            ${p.skillsDir &&
              html`<li><span class="plugin-part">${t("plugins.skills")}</span> <span
                class="hook-path">${p.skillsDir}</span></li>`}
          </ul>
        `}
      ${p.hooks.length > 0 &&
        html`
          <p class="hook-list-label">${t("plugins.hooks", { n: p.hooks.length })}</p>
          <${HookList} hooks=${p.hooks} />
        `}
      ${err && html`<p class="form-error" role="alert">${err}</p>`}
      ${waits &&
        html`
          <div class="field-row">
            <button type="button" class="btn btn-accent btn-small" data-testid="plugin-trust"
              onClick=${async () => setErr(await trustPlugin(p))}>${t("plugins.trust")}</button>
          </div>
        `}
    </li>
  `;
}

export function PluginsPane() {
  useEffect(() => void loadPlugins(), []);
  const list = plugins.value;
  return html`
    <section class="settings-section hooks-pane" data-testid="plugins-pane"
      aria-labelledby="plugins-title">
      <h2 id="plugins-title" class="provider-title">${t("plugins.title")}</h2>
      <p class="settings-note">${t("plugins.intro")}</p>
      ${list === null
        ? html`<p class="settings-note">${t("settings.loading")}</p>`
        : list.length === 0
        ? html`
          <div class="hooks-empty" data-testid="plugins-empty">
            <p class="settings-note">${t("plugins.empty")}</p>
            <pre class="tool-out hooks-example">${EXAMPLE}</pre>
          </div>
        `
        : html`
          <ul class="hook-sources" data-testid="plugin-list">
            ${list.map((p) => html`<${PluginCard} key=${p.path} p=${p} />`)}
          </ul>
        `}
    </section>
  `;
}

const EXAMPLE = `plugins/my-plugin/plugin.json
{
  "name": "my-plugin", "version": "1.0.0",
  "description": "What it adds",
  "commands": "commands", "skills": "skills",
  "hooks": [{ "event": "PreToolUse", "matcher": "exec_command",
              "command": "$CLAUDE_PLUGIN_ROOT/check.sh" }]
}`;
