/** The connected clients of Settings → Remote access: device, address and since when. */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { clientText, shortTime } from "../format.js";

/** @param {{clients: import("../../../protocol/index.ts").ConnectedClient[]}} props */
export function RemoteAccessClients({ clients }) {
  return html`
    <section class="remote-block" aria-labelledby="remote-clients-title">
      <h3 class="remote-subtitle" id="remote-clients-title">${t("remote.clients")}</h3>
      ${clients.length === 0 ? html`<p class="settings-note">${t("remote.clientsNone")}</p>` : html`
        <ul class="remote-clients" data-testid="remote-clients">
          ${clients.map((c) =>
            html`
              <li class="remote-client" data-testid="remote-client" data-kind=${c.kind}>
                <span class="remote-client-who">
                  ${clientText(c)}${c.you ? " " : ""}${c.you &&
                    html`<span class="remote-you">(${t("remote.you")})</span>`}
                </span>
                <span class="remote-client-ip" data-testid="remote-client-ip">${c.ip ?? ""}</span>
                <span class="remote-client-since">${c.since
                  ? t("remote.since", { time: shortTime(c.since) })
                  : ""}</span>
              </li>
            `
          )}
        </ul>
      `}
    </section>
  `;
}
