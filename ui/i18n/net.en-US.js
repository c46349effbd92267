/** The outbound proxy: Settings → General → Network. */
export default {
  "proxy.title": "Network",
  "proxy.url": "HTTP(S) proxy",
  "proxy.help":
    "Every request ReinAgent makes to the outside (models, web tools, MCP servers, push, WebDAV, updates) goes through it. Empty: direct, unless the system proxy is used.",
  "proxy.system": "Without a proxy here, use the system proxy (HTTP_PROXY / HTTPS_PROXY)",
  "proxy.systemIs": "Without a proxy here, use the system proxy ({proxy})",
  "proxy.noProxy": "Go direct for these hosts",
  "proxy.loopback": "Proxy loopback hosts too (localhost, 127.0.0.1)",
  "proxy.save": "Save",
  "proxy.saved": "Saved.",
};
