/**
 * Settings → Remote access (`remote.*` ops): the URLs and QR codes, connected clients,
 * the token reset (this client pairs again through POST /api/pair, every other one is
 * dropped) and the trusted-proxy switch. Also registers the installable app's service
 * worker (only where browsers allow one: HTTPS or localhost).
 *
 * @typedef {import("../../protocol/index.ts").RemoteInfo} RemoteInfo
 */
import { signal } from "@preact/signals";
import { errorCode, request } from "./connection.js";

export const remoteInfo = signal(/** @type {RemoteInfo|null} */ (null));
export const remoteError = signal("");
/** The URL whose QR code is shown (index into `remoteInfo.urls`). */
export const qrIndex = signal(0);
/** Set right after a reset from this client, to say so next to the new QR code. */
export const justReset = signal(false);

/** @param {unknown} e */
const message = (e) => String(/** @type {Error} */ (e)?.message ?? e);

export async function loadRemote() {
  try {
    remoteInfo.value = await request("remote.info", {});
    remoteError.value = "";
  } catch (e) {
    if (errorCode(e) !== "disconnected") remoteError.value = message(e);
  }
}

/** The first network URL (what a phone needs), else this computer's. */
export function defaultQrIndex(/** @type {RemoteInfo} */ info) {
  const i = info.urls.findIndex((u) => u.kind === "network");
  return i < 0 ? 0 : i;
}

/** New token: every other client is disconnected; this one keeps working with a new cookie. */
export async function resetToken() {
  try {
    const r = await request("remote.resetToken", {});
    const res = await fetch(`/api/pair?token=${encodeURIComponent(r.token)}`, {
      method: "POST",
      credentials: "same-origin",
    });
    if (!res.ok) throw new Error(`pairing with the new token failed (HTTP ${res.status})`);
    remoteInfo.value = r.info;
    qrIndex.value = defaultQrIndex(r.info);
    justReset.value = true;
    remoteError.value = "";
  } catch (e) {
    remoteError.value = message(e);
  }
}

/** @param {boolean} enabled */
export async function setTrustProxy(enabled) {
  try {
    remoteInfo.value = await request("remote.setTrustProxy", { enabled });
    remoteError.value = "";
  } catch (e) {
    remoteError.value = message(e);
  }
}

/** Lets the app be installed and show an offline page; a failure only costs that. */
export function registerServiceWorker() {
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
  if (!globalThis.isSecureContext) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((e) =>
    console.warn("reinagent: service worker not registered", e)
  );
}
