/**
 * Settings → General → Network: the proxy every outbound request of the server goes
 * through (models, web tools, MCP HTTP servers, push, WebDAV, updates), the hosts that
 * go direct, and whether loopback hosts are proxied too. Saved with Save (validated by
 * the server: a bad address is said, nothing is lost).
 *
 * @typedef {import("../../../protocol/index.ts").ProxyView} ProxyView
 */
import { useEffect, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { request } from "../../state/connection.js";

/** @param {unknown} e */
const msg = (e) => e instanceof Error ? e.message : String(e);

export function ProxySettings() {
  const [view, setView] = useState(/** @type {ProxyView|null} */ (null));
  const [url, setUrl] = useState("");
  const [noProxy, setNoProxy] = useState("");
  const [loopback, setLoopback] = useState(false);
  const [system, setSystem] = useState(false);
  const [status, setStatus] = useState(/** @type {{ok: boolean, text: string}|null} */ (null));
  /** @param {ProxyView} v */
  const show = (v) => {
    setView(v);
    setUrl(v.url ?? "");
    setNoProxy(v.noProxy.join(", "));
    setLoopback(v.loopback);
    setSystem(v.system);
  };
  useEffect(() => {
    request("net.proxyGet", {}).then(show).catch((e) => setStatus({ ok: false, text: msg(e) }));
  }, []);
  const save = async () => {
    try {
      show(
        await request("net.proxySet", {
          url: url.trim() || null,
          noProxy: noProxy.split(/[,\s]+/).map((s) => s.trim()).filter(Boolean),
          loopback,
          system,
        }),
      );
      setStatus({ ok: true, text: t("proxy.saved") });
    } catch (e) {
      setStatus({ ok: false, text: msg(e) });
    }
  };
  return html`
    <fieldset class="settings-group" data-testid="proxy-settings"
      data-state=${view ? "ready" : "loading"} disabled=${!view}>
      <legend class="settings-group-title">${t("proxy.title")}</legend>
      <div class="field">
        <label class="field-label" for="proxy-url">${t("proxy.url")}</label>
        <input id="proxy-url" class="input" data-testid="proxy-url" placeholder="http://127.0.0.1:7890"
          value=${url} onInput=${(/** @type {Event} */ e) =>
            setUrl(/** @type {HTMLInputElement} */ (e.currentTarget).value)} />
        <p class="field-help">${t("proxy.help")}</p>
      </div>
      <div class="field">
        <label class="field-label" for="proxy-no">${t("proxy.noProxy")}</label>
        <input id="proxy-no" class="input" data-testid="proxy-no" placeholder="localhost, .corp, 192.168.1.10"
          value=${noProxy} onInput=${(/** @type {Event} */ e) =>
            setNoProxy(/** @type {HTMLInputElement} */ (e.currentTarget).value)} />
      </div>
      <label class="field-help proxy-check">
        <input type="checkbox" data-testid="proxy-loopback" checked=${loopback}
          onChange=${(/** @type {Event} */ e) =>
            setLoopback(/** @type {HTMLInputElement} */ (e.currentTarget).checked)} />
        ${" "}${t("proxy.loopback")}
      </label>
      <label class="field-help proxy-check">
        <input type="checkbox" data-testid="proxy-system" checked=${system}
          onChange=${(/** @type {Event} */ e) =>
            setSystem(/** @type {HTMLInputElement} */ (e.currentTarget).checked)} />
        ${" "}${view?.envProxy ? t("proxy.systemIs", { proxy: view.envProxy }) : t("proxy.system")}
      </label>
      ${view?.fileError && html`<p class="field-help field-error">${view.fileError}</p>`}
      <div class="field-row">
        <button type="button" class="btn btn-small" data-testid="proxy-save" onClick=${save}>${t(
          "proxy.save",
        )}</button>
        ${status &&
          html`
            <span class=${`field-help${status.ok ? "" : " field-error"}`} role="status"
              data-testid="proxy-status">${status.text}</span>
          `}
      </div>
    </fieldset>
  `;
}
