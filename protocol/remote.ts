/**
 * Settings → Remote access: how phones and other computers reach this server (URLs
 * per network address with a QR code each), who is connected, the token reset, and
 * the trusted-proxy switch (the real client address from `X-Forwarded-For`).
 *
 * Ops: `remote.info {}`, `remote.resetToken {}` (every other client is disconnected
 * with close code {@link TOKEN_RESET_CLOSE}; the caller re-pairs through `/api/pair`),
 * `remote.setTrustProxy {enabled}`.
 */
import { bool, obj, type Schema } from "./schema.ts";
import type { ClientInfo } from "./changes.ts";

/** WebSocket close code sent to every client when the access token is reset. */
export const TOKEN_RESET_CLOSE = 4001;

/** A QR code as one SVG path of unit squares in a `size`×`size` box (quiet zone included). */
export interface QrCode {
  size: number;
  path: string;
}

export interface RemoteUrl {
  /** "local" (this computer, loopback) or "network" (an interface address). */
  kind: "local" | "network";
  /** The interface name for network addresses (e.g. "eth0"); "" for local. */
  iface: string;
  address: string;
  /** The URL with the access token (pairs the device that opens it). */
  url: string;
  qr: QrCode;
}

export interface ConnectedClient extends ClientInfo {
  id: string;
  /** When it connected (ms since the epoch). */
  since: number;
  /** The client that asked. */
  you: boolean;
}

export interface RemoteInfo {
  /** The address the server listens on ("127.0.0.1", "0.0.0.0", …). */
  host: string;
  port: number;
  /** Served over TLS (`--tls-cert/--tls-key`). */
  tls: boolean;
  /** Listening on every interface (reachable from the network). */
  allInterfaces: boolean;
  urls: RemoteUrl[];
  clients: ConnectedClient[];
  /** `X-Forwarded-For` from a loopback peer is taken as the client address. */
  trustProxy: boolean;
  /** Set when `remote.json` cannot be read (it is left as it is; the switch is off). */
  settingsError: string | null;
  /** Where the plain token is kept (see the README on why it is not only a hash). */
  tokenFile: string;
}

export const REMOTE_OP_ARGS = {
  "remote.info": obj({}),
  "remote.resetToken": obj({}),
  "remote.setTrustProxy": obj({ enabled: bool }),
} satisfies Record<string, Schema>;

export interface RemoteOpResults {
  "remote.info": RemoteInfo;
  /** `token`: the new token, for the caller to pair again (GET /api/pair?token=…). */
  "remote.resetToken": { info: RemoteInfo; token: string };
  "remote.setTrustProxy": RemoteInfo;
}
