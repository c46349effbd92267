/**
 * The plain instructions of Settings → Remote access: LAN, VPS + TLS, Caddy / nginx
 * (with the WebSocket upgrade headers), Tailscale and Cloudflare Tunnel. Commands and
 * configs use this server's port.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";

/** @param {number} port */
const caddy = (port) =>
  `agent.example.com {
  reverse_proxy 127.0.0.1:${port}
}`;

/** @param {number} port */
const nginx = (port) =>
  `location / {
  proxy_pass http://127.0.0.1:${port};
  proxy_http_version 1.1;
  proxy_set_header Host $host;
  proxy_set_header Upgrade $http_upgrade;
  proxy_set_header Connection "upgrade";
  proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
  proxy_read_timeout 1h;
}`;

/** @param {{port: number}} props */
export function RemoteAccessGuide({ port }) {
  const p = String(port);
  /** @param {string} s */
  const withPort = (s) => s.replaceAll("PORT", p).replaceAll("端口", p);
  const items = /** @type {const} */ (["lan", "tls", "proxy", "tailscale", "cloudflare"]);
  return html`
    <section class="remote-block" data-testid="remote-guide" aria-labelledby="remote-guide-title">
      <h3 class="remote-subtitle" id="remote-guide-title">${t("remote.guide")}</h3>
      ${items.map((id) =>
        html`
          <details class="remote-guide-item" data-testid=${`remote-guide-${id}`}>
            <summary>${t(/** @type {const} */ (`remote.guide.${id}.title`))}</summary>
            <p class="field-help">${withPort(t(/** @type {const} */ (`remote.guide.${id}`)))}</p>
            ${id === "proxy" &&
              html`
                <p class="field-help">Caddyfile</p>
                <pre class="remote-code">${caddy(port)}</pre>
                <p class="field-help">nginx</p>
                <pre class="remote-code">${nginx(port)}</pre>
              `}
          </details>
        `
      )}
    </section>
  `;
}
