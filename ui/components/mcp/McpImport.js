/**
 * Import servers: paste JSON (`{"mcpServers": {...}}` as Claude Code / Cursor write it,
 * an array, or one server), or scan Claude Code, Codex, OpenCode and the project's
 * `.mcp.json` on this machine. Found servers are listed with where they came from;
 * nothing runs until the user picks them and imports (taken ids get a suffix).
 *
 * @typedef {import("../../../protocol/index.ts").McpImportCandidate} McpImportCandidate
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { importServers, mcpImportOpen, parseImport, scanImports } from "../../state/mcp.js";
import { targetOf } from "../../state/mcp_model.js";

export function McpImport() {
  const [text, setText] = useState("");
  const [found, setFound] = useState(/** @type {McpImportCandidate[]|null} */ (null));
  const [picked, setPicked] = useState(/** @type {Set<number>} */ (new Set()));
  const [problems, setProblems] = useState(/** @type {string[]} */ ([]));
  const [done, setDone] = useState(/** @type {string|null} */ (null));
  /** @param {Promise<{candidates: McpImportCandidate[], problems: string[]}>} p */
  const show = async (p) => {
    setDone(null);
    try {
      const r = await p;
      setFound(r.candidates);
      setProblems(r.problems);
      setPicked(new Set(r.candidates.map((_, i) => i).filter((i) => !r.candidates[i].exists)));
    } catch (e) {
      setProblems([e instanceof Error ? e.message : String(e)]);
    }
  };
  const toggle = (/** @type {number} */ i) => {
    const s = new Set(picked);
    if (s.has(i)) s.delete(i);
    else s.add(i);
    setPicked(s);
  };
  const run = async () => {
    if (!found) return;
    try {
      const r = await importServers(found.filter((_, i) => picked.has(i)).map((c) => c.config));
      setDone(t("mcp.import.done", { ids: r.imported.join(", ") }));
      setFound(null);
    } catch (e) {
      setProblems([e instanceof Error ? e.message : String(e)]);
    }
  };
  return html`
    <div class="provider-card mcp-import" data-testid="mcp-import">
      <h3 class="provider-title">${t("mcp.import.title")}</h3>
      <p class="settings-note">${t("mcp.import.note")}</p>
      <textarea class="input mono" rows="5" data-testid="mcp-import-text" spellcheck=${false}
        placeholder=${'{"mcpServers": {"fs": {"command": "npx -y @modelcontextprotocol/server-filesystem ."}}}'}
        value=${text} onInput=${(/** @type {Event} */ e) =>
          setText(/** @type {HTMLTextAreaElement} */ (e.currentTarget).value)}></textarea>
      <div class="field-row">
        <button type="button" class="btn" data-testid="mcp-import-parse" disabled=${!text.trim()}
          onClick=${() => show(parseImport(text))}>${t("mcp.import.parse")}</button>
        <button type="button" class="btn" data-testid="mcp-import-scan"
          onClick=${() => show(scanImports())}>${t("mcp.import.scan")}</button>
        <span class="grow"></span>
        <button type="button" class="btn btn-ghost" onClick=${() =>
          mcpImportOpen.value = false}>${t("task.cancel")}</button>
      </div>
      ${problems.map((p) =>
        html`<p class="field-help field-warn" data-testid="mcp-import-problem">${p}</p>`
      )}
      ${done && html`<p class="field-help" data-testid="mcp-import-done">${done}</p>`}
      ${found && found.length === 0 &&
        html`<p class="settings-note" data-testid="mcp-import-none">${t("mcp.import.none")}</p>`}
      ${found && found.length > 0 &&
        html`
          <ul class="mcp-candidates">
            ${found.map((c, i) =>
              html`
                <li class="mcp-candidate" data-testid="mcp-candidate">
                  <label>
                                  <input type="checkbox" checked=${picked.has(i)} onChange=${() =>
                                    toggle(i)} />
                                  <span class="mcp-id">${c.config.id}</span>
                                  <span class="badge">${t(
                                    /** @type {const} */ (`mcp.transport.${c.config.transport}`),
                                  )}</span>
                                  <span class="badge">${c.source}</span>
                                  ${c.exists &&
                                    html`<span class="badge mcp-error-badge">${
                                      t("mcp.import.exists")
                                    }</span>`}
                                </label>
                  <div class="mcp-target">${targetOf(c.config)}</div>
                </li>
              `
            )}
          </ul>
          <button type="button" class="btn btn-accent" data-testid="mcp-import-run"
            disabled=${picked.size === 0} onClick=${run}>${t("mcp.import.run", {
              n: picked.size,
            })}</button>
        `}
    </div>
  `;
}
