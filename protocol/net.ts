/**
 * The outbound HTTP(S) proxy, Settings → General: one proxy for every request
 * the server makes to the outside (models, web tools, MCP HTTP servers, push, WebDAV,
 * updates); loopback hosts go direct unless asked; a no-proxy list (plus NO_PROXY).
 * Without one, requests go direct; the environment's HTTP_PROXY / HTTPS_PROXY only when
 * "use the system proxy" is on.
 *
 * Ops: `net.proxyGet {}`, `net.proxySet {url, noProxy, loopback, system?}`.
 */
import { arr, bool, nullable, obj, type Schema, str } from "./schema.ts";

export interface ProxyView {
  url: string | null;
  noProxy: string[];
  loopback: boolean;
  /** Without `url`, the environment's proxy is used (off: direct). */
  system: boolean;
  /** The environment's proxy (HTTPS_PROXY / HTTP_PROXY), used when `url` is null. */
  envProxy: string | null;
  /** Why the saved file could not be used (it is kept as it is). */
  fileError: string | null;
}

export const NET_OP_ARGS = {
  "net.proxyGet": obj({}),
  "net.proxySet": obj({
    url: nullable(str({ min: 1, max: 2000 })),
    noProxy: arr(str({ min: 1, max: 255 }), 100),
    loopback: bool,
    "system?": bool,
  }),
} satisfies Record<string, Schema>;

export interface NetOpResults {
  "net.proxyGet": ProxyView;
  "net.proxySet": ProxyView;
}
