/**
 * Settings → General → Notifications: which events notify (every device: the server
 * keeps them, Web Push obeys them), a sound on this device, system notifications and
 * Web Push for this device — or why push cannot work here (plain HTTP on a LAN address).
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { NOTIFY_KINDS } from "../../../protocol/index.ts";
import {
  askSystemPermission,
  disablePush,
  enablePush,
  notifyEvents,
  pushBlocker,
  pushBusy,
  pushDevices,
  pushEndpoint,
  setNotifyEvents,
  setSound,
  soundOn,
  systemPermission,
  testPush,
} from "../../state/notify.js";
import { notifyError } from "../../state/ui.js";

/** @param {{checked: boolean, label: string, testid: string, onChange: (v: boolean) => void}} p */
function Check({ checked, label, testid, onChange }) {
  return html`
    <label class="notify-check">
      <input
        type="checkbox"
        data-testid=${testid}
        checked=${checked}
        onChange=${(/** @type {Event} */ e) =>
          onChange(/** @type {HTMLInputElement} */ (e.currentTarget).checked)}
      />
      ${label}
    </label>
  `;
}

function SystemRow() {
  const p = systemPermission.value;
  return html`
    <div class="notify-row">
      <span>${t("notify.system")}</span>
      ${p === "default"
        ? html`
          <button type="button" class="ap-btn" data-testid="notify-system-allow"
            onClick=${() => askSystemPermission()}>${t("notify.system.allow")}</button>
        `
        : html`<span class="field-help" data-testid="notify-system-state">${
          t(
            p === "granted"
              ? "notify.system.on"
              : p === "denied"
              ? "notify.system.denied"
              : p === "insecure"
              ? "notify.system.insecure"
              : "notify.system.unsupported",
          )
        }</span>`}
    </div>
  `;
}

function PushRow() {
  const [sent, setSent] = useState(false);
  const blocker = pushBlocker();
  const on = pushEndpoint.value !== null;
  const busy = pushBusy.value;
  const run = (/** @type {() => Promise<unknown>} */ fn) =>
    fn().catch((e) => notifyError("notify.push.failed", e));
  return html`
    <div class="notify-push" data-testid="notify-push">
      <p class="notify-row"><span>${t("notify.push.title")}</span></p>
      ${blocker === "insecure"
        ? html`<p class="field-help field-warn" data-testid="notify-push-blocked">${
          t("notify.push.insecure", { host: location.host })
        }</p>`
        : blocker === "unsupported"
        ? html`<p class="field-help" data-testid="notify-push-blocked">${
          t("notify.push.unsupported")
        }</p>`
        : html`
          <div class="notify-row">
            ${on &&
              html`<span class="field-help" data-testid="notify-push-on">${
                t("notify.push.on")
              }</span>`}
            <button
              type="button"
              class="ap-btn"
              disabled=${busy}
              data-testid=${on ? "notify-push-disable" : "notify-push-enable"}
              onClick=${() => run(on ? disablePush : enablePush)}
            >
              ${t(on ? "notify.push.disable" : "notify.push.enable")}
            </button>
            ${on && html`
              <button
                type="button"
                class="ap-btn"
                disabled=${busy}
                data-testid="notify-push-test"
                onClick=${() =>
                  run(async () => {
                    await testPush();
                    setSent(true);
                  })}
              >
                ${t(sent ? "notify.push.testSent" : "notify.push.test")}
              </button>
            `}
          </div>
        `}
      <p class="field-help" data-testid="notify-push-devices">${t("notify.push.devices", {
        n: pushDevices.value.length,
      })}</p>
    </div>
  `;
}

export function NotifySettings() {
  const ev = notifyEvents.value;
  return html`
    <fieldset class="settings-group" data-testid="notify-settings">
      <legend class="settings-group-title">${t("notify.settings.title")}</legend>
      <p class="field-help">${t("notify.settings.help")}</p>
      <div class="notify-events">
        ${NOTIFY_KINDS.map((k) =>
          html`
            <${Check}
              key=${k}
              testid=${`notify-event-${k}`}
              checked=${ev[k]}
              label=${t(/** @type {const} */ (`notify.event.${k}`))}
              onChange=${(/** @type {boolean} */ v) =>
                setNotifyEvents({ [k]: v }).catch((e) => notifyError("error.settings", e))}
            />
          `
        )}
      </div>
      <${Check}
        testid="notify-sound"
        checked=${soundOn.value}
        label=${t("notify.sound")}
        onChange=${setSound}
      />
      <${SystemRow} />
      <${PushRow} />
    </fieldset>
  `;
}
