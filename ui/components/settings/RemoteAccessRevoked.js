/**
 * Shown in place of the app when the server dropped this client because the access
 * token was reset: it cannot reconnect with its old cookie and must pair again — by
 * scanning the new QR code, or by pasting the new link here.
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { tokenFromLink } from "../../state/remote_model.js";

export function RemoteAccessRevoked() {
  const [link, setLink] = useState("");
  const token = tokenFromLink(link);
  return html`
    <div class="remote-revoked" data-testid="access-revoked" role="alertdialog"
      aria-labelledby="revoked-title">
      <form class="remote-revoked-card" onSubmit=${(/** @type {Event} */ e) => {
        e.preventDefault();
        // Only this server: the token is kept, the pasted host is not followed.
        if (token) location.assign(`/?token=${encodeURIComponent(token)}`);
      }}>
        <h1 id="revoked-title">${t("remote.revoked.title")}</h1>
        <p>${t("remote.revoked.text")}</p>
        <input class="input" data-testid="revoked-link" value=${link}
          aria-label=${t("remote.revoked.paste")} placeholder=${t("remote.revoked.paste")}
          onInput=${(/** @type {Event} */ e) =>
            setLink(/** @type {HTMLInputElement} */ (e.currentTarget).value)} />
        <button type="submit" class="btn btn-accent" data-testid="revoked-open"
          disabled=${!token}>${t("remote.revoked.open")}</button>
      </form>
    </div>
  `;
}
