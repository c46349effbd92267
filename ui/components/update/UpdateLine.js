/**
 * About's "Update available" line: asks the server once (`update.check`, the release
 * manifest of $REINAGENT_UPDATE_MANIFEST) and, when a newer version is offered, says so
 * with the command that installs it. Nothing is shown without a manifest or a newer
 * version; a manifest that cannot be read is said plainly.
 *
 * @typedef {import("../../../protocol/index.ts").UpdateCheck} UpdateCheck
 */
import { useEffect, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { request } from "../../state/connection.js";

export function UpdateLine() {
  const [c, setC] = useState(/** @type {UpdateCheck|null} */ (null));
  useEffect(() => {
    request("update.check", {}).then(setC).catch(() => setC(null));
  }, []);
  if (!c?.manifestUrl) return null;
  if (c.error) {
    return html`<p class="settings-note field-error" data-testid="update-line" data-state="error">${
      t("update.error", { message: c.error })
    }</p>`;
  }
  if (!c.available) {
    return html`<p class="settings-note" data-testid="update-line" data-state="current">${
      t("update.current", { version: c.current })
    }</p>`;
  }
  return html`
    <p class="settings-note update-available" data-testid="update-line" data-state="available">
      <strong>${t("update.available", { version: c.latest ?? "?" })}</strong>${" "}
      ${t("update.how")} <code>reinagent update</code>
    </p>
  `;
}
