/**
 * The OAuth line of an http MCP server's row: signed in (the token masked, its scope and
 * expiry) with Sign out, or Sign in. Sign in opens the authorization server's page in a
 * new window and also shows it as a link: on a phone the pop-up may be blocked, and the
 * answer comes back to this server by itself.
 *
 * @typedef {import("../../../protocol/index.ts").McpServerStatus} McpServerStatus
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { signOut, startSignIn } from "../../state/mcp.js";

/** @param {{s: McpServerStatus}} props */
export function McpOAuthLine({ s }) {
  const id = s.config.id;
  const [link, setLink] = useState(/** @type {string|null} */ (null));
  const [err, setErr] = useState(/** @type {string|null} */ (null));
  const [busy, setBusy] = useState(false);
  const o = s.oauth ?? null;
  const needsSignIn = /needs sign-in/.test(s.error?.message ?? "");
  async function run() {
    setBusy(true);
    setErr(null);
    const r = await startSignIn(id);
    setBusy(false);
    setLink(r.url);
    setErr(r.error);
  }
  // A server that never asked for OAuth shows nothing of it.
  if (!o && !needsSignIn && !link) return null;
  return html`
    <div class="mcp-oauth" data-testid="mcp-oauth" data-signed-in=${o ? "true" : "false"}>
      ${o
        ? html`
          <span class="badge" data-testid="mcp-oauth-state">${t("mcp.oauth.signedIn")}</span>
          <code class="mcp-oauth-token" data-testid="mcp-oauth-token"
            title=${t("mcp.oauth.tokenMasked")}>${o.token}</code>
          ${o.scope &&
            html`<span class="mcp-oauth-meta">${t("mcp.oauth.scope", { scope: o.scope })}</span>`}
          ${o.expiresAt &&
            html`<span class="mcp-oauth-meta">${
              t("mcp.oauth.expires", {
                time: new Date(o.expiresAt).toLocaleString(),
              })
            }</span>`}
          <button type="button" class="btn btn-small" data-testid="mcp-signout" disabled=${busy}
            onClick=${async () => {
              setBusy(true);
              setErr(await signOut(id));
              setBusy(false);
              setLink(null);
            }}>${t("mcp.oauth.signOut")}</button>
        `
        : html`
          <span class="badge mcp-error-badge">${t("mcp.oauth.needed")}</span>
          <button type="button" class="btn btn-small btn-accent" data-testid="mcp-signin"
            disabled=${busy} onClick=${() => run()}>${t("mcp.oauth.signIn")}</button>
        `}
      ${link && !o &&
        html`
          <p class="field-help" data-testid="mcp-oauth-link">
            ${t("mcp.oauth.opened")}
            <a href=${link} target="_blank" rel="noopener noreferrer">${t("mcp.oauth.openLink")}</a>
          </p>
        `}
      ${err && html`<p class="field-help field-error" role="alert">${err}</p>`}
    </div>
  `;
}
