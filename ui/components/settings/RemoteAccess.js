/**
 * Settings → Remote access: where this server listens, its URLs per network address
 * with a QR code, the connected clients, the token reset, the trusted-proxy switch and
 * how to reach it from a phone (LAN, TLS, reverse proxy, Tailscale, Cloudflare Tunnel).
 * Reloaded every few seconds while open, so clients coming and going show up.
 */
import { useEffect, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import {
  defaultQrIndex,
  justReset,
  loadRemote,
  qrIndex,
  remoteError,
  remoteInfo,
  resetToken,
  setTrustProxy,
} from "../../state/remote.js";
import { shownUrl } from "../../state/remote_model.js";
import { copyText } from "../CodeBlock.js";
import { InlineConfirm, Switch } from "./controls.js";
import { RemoteAccessQr } from "./RemoteAccessQr.js";
import { RemoteAccessClients } from "./RemoteAccessClients.js";
import { RemoteAccessGuide } from "./RemoteAccessGuide.js";

const REFRESH_MS = 5000;

/** @param {import("../../../protocol/index.ts").RemoteUrl} u */
const urlLabel = (u) =>
  u.kind === "local"
    ? t("remote.url.local")
    : u.iface
    ? t("remote.url.network", { iface: u.iface })
    : t("remote.url.networkPlain");

export function RemoteAccess() {
  const [confirming, setConfirming] = useState(false);
  const [copied, setCopied] = useState(-1);
  useEffect(() => {
    justReset.value = false;
    let first = true;
    const load = () =>
      loadRemote().then(() => {
        if (first && remoteInfo.value) qrIndex.value = defaultQrIndex(remoteInfo.value);
        first = false;
      });
    void load();
    const timer = setInterval(load, REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  const info = remoteInfo.value;
  if (!info) {
    return remoteError.value
      ? html`<p class="settings-note field-error" role="alert">${
        t("remote.error", { message: remoteError.value })
      }</p>`
      : html`<p class="settings-note">${t("remote.loading")}</p>`;
  }
  // A QR code of 127.0.0.1 opens nothing on a phone: none is offered then.
  const reachable = info.urls.some((u) => u.kind === "network");
  const shown = reachable ? info.urls[Math.min(qrIndex.value, info.urls.length - 1)] : null;
  return html`
    <section class="settings-section remote" data-testid="remote-settings"
      aria-labelledby="remote-title">
      <h2 class="about-title" id="remote-title">${t("remote.title")}</h2>
      ${remoteError.value &&
        html`<p class="field-error" role="alert" data-testid="remote-error">${
          t("remote.error", { message: remoteError.value })
        }</p>`}
      <p class="field-help" data-testid="remote-listen">
        ${t("remote.listen", {
          host: info.host,
          port: info.port,
          scheme: info.tls ? "HTTPS" : "HTTP",
        })}
        ${" "}${info.allInterfaces || info.urls.some((u) => u.kind === "network")
          ? t("remote.listenAll")
          : t("remote.listenLocal")}
      </p>

      <div class="remote-pair">
        <div class="remote-qr-box">
          ${shown && html`
            <${RemoteAccessQr} qr=${shown.qr}
              label=${t("remote.qrFor", { address: shown.address })} />
          `}
          <p class="field-help" data-testid="remote-qr-for">${justReset.value
            ? t("remote.justReset")
            : shown
            ? t("remote.qrFor", { address: shown.address })
            : t("remote.noQr")}</p>
        </div>
        <div class="remote-urls">
          <h3 class="remote-subtitle">${t("remote.urls")}</h3>
          <ul class="remote-url-list" data-testid="remote-urls">
            ${info.urls.map((u, i) =>
              html`
                <li class="remote-url" data-testid="remote-url" data-kind=${u.kind}
                  aria-current=${i === qrIndex.value ? "true" : undefined}>
                  <span class="remote-url-label">${urlLabel(u)}</span>
                  <code class="remote-url-text">${shownUrl(u.url)}</code>
                  <span class="remote-url-actions">
                    ${reachable &&
                      html`
                        <button type="button" class="btn btn-small" data-testid="remote-show-qr"
                          disabled=${i === qrIndex.value}
                          onClick=${() => qrIndex.value = i}>${t("remote.showQr")}</button>
                      `}
                    <button type="button" class="btn btn-small" data-testid="remote-copy"
                      onClick=${() => copyText(u.url).then(() => setCopied(i), () => {})}>
                      <span aria-live="polite">${copied === i
                        ? t("remote.copied")
                        : t("remote.copy")}</span>
                    </button>
                  </span>
                </li>
              `
            )}
          </ul>
          <p class="field-help">${t("remote.qrSecret")}</p>
        </div>
      </div>

      <${RemoteAccessClients} clients=${info.clients} />

      <section class="remote-block" aria-labelledby="remote-reset-title">
        <h3 class="remote-subtitle" id="remote-reset-title">${t("remote.reset")}</h3>
        <p class="field-help">${t("remote.resetHelp")}</p>
        ${confirming
          ? html`
            <${InlineConfirm}
              text=${t("remote.resetConfirm")}
              confirmLabel=${t("remote.resetDo")}
              testid="remote-reset-confirm"
              onConfirm=${() => {
                setConfirming(false);
                void resetToken();
              }}
              onCancel=${() => setConfirming(false)}
            />
          `
          : html`
            <button type="button" class="btn btn-danger" data-testid="remote-reset"
              onClick=${() => setConfirming(true)}>${t("remote.reset")}</button>
          `}
        <p class="field-help" data-testid="remote-token-note">${t("remote.tokenNote", {
          file: info.tokenFile,
        })}</p>
      </section>

      <section class="remote-block" aria-labelledby="remote-proxy-title">
        <div class="remote-switch-row">
          <h3 class="remote-subtitle" id="remote-proxy-title">${t("remote.proxy")}</h3>
          <${Switch}
            checked=${info.trustProxy}
            label=${t("remote.proxy")}
            testid="remote-trust-proxy"
            disabled=${Boolean(info.settingsError)}
            onChange=${(/** @type {boolean} */ on) => void setTrustProxy(on)}
          />
        </div>
        <p class="field-help">${t("remote.proxyHelp")}</p>
        ${info.settingsError &&
          html`<p class="field-error" role="alert">${
            t("remote.settingsError", { error: info.settingsError })
          }</p>`}
      </section>

      <${RemoteAccessGuide} port=${info.port} />
    </section>
  `;
}
