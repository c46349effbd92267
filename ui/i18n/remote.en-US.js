/** Settings → Remote access and the "paired again" screen after a token reset. */
export default {
  "settings.tab.remote": "Remote access",
  "remote.title": "Remote access",
  "remote.loading": "Loading…",
  "remote.error": "Remote access: {message}",
  "remote.listen": "Listening on {host}:{port} ({scheme}).",
  "remote.listenAll": "Reachable from other devices on your network.",
  "remote.listenLocal":
    "Only this computer can connect. To use a phone on your network, start ReinAgent with: reinagent serve --host 0.0.0.0 (or put a reverse proxy or tunnel in front, see below).",
  "remote.urls": "Addresses",
  "remote.noQr":
    "No QR code: a phone cannot open this computer's own address (127.0.0.1). Listen on your network as said above to get one.",
  "remote.url.local": "The computer running ReinAgent",
  "remote.url.network": "Network ({iface})",
  "remote.url.networkPlain": "Network",
  "remote.showQr": "Show QR code",
  "remote.copy": "Copy link",
  "remote.copied": "Copied",
  "remote.qrFor": "Scan with the phone's camera to open and pair: {address}",
  "remote.qrSecret":
    "The link and QR code contain the access token: whoever has them controls this computer's agent.",
  "remote.justReset":
    "The token was reset. Every other device was disconnected; this is the new QR code.",
  "remote.clients": "Connected now",
  "remote.clientsNone": "No clients connected.",
  "remote.you": "this device",
  "remote.since": "since {time}",
  "remote.kind.desktop": "Desktop",
  "remote.kind.phone": "Phone",
  "remote.kind.tablet": "Tablet",
  "remote.kind.cli": "CLI",
  "remote.kind.mcp": "MCP client",
  "remote.kind.unknown": "Unknown",
  "remote.reset": "Reset access token",
  "remote.resetHelp":
    "Makes a new token. Every device is disconnected and must pair again with the new link or QR code.",
  "remote.resetConfirm": "Disconnect every device and make a new token?",
  "remote.resetDo": "Reset",
  "remote.proxy": "Behind a trusted reverse proxy",
  "remote.proxyHelp":
    "Take the client address from X-Forwarded-For (and the host from X-Forwarded-Host), only for requests that come from this computer (the proxy). Turn it on when Caddy, nginx, Tailscale serve or cloudflared forwards to ReinAgent on 127.0.0.1: otherwise every remote client looks like this computer and is never locked out after bad tokens.",
  "remote.settingsError":
    "remote.json cannot be read ({error}); it was left as it is and the switch is off until it is fixed or removed.",
  "remote.tokenNote":
    "The token is kept in {file} (readable only by you) in plain text, because ReinAgent prints the link and draws this QR code again after a restart; clients are checked against its SHA-256 hash in constant time.",
  "remote.guide": "How to connect",
  "remote.guide.lan.title": "Same network (LAN)",
  "remote.guide.lan":
    "Run reinagent serve --host 0.0.0.0 and scan the QR code. Plain HTTP is fine at home, but the traffic (and token) is not encrypted and browsers allow installing the app, offline page and push notifications only over HTTPS.",
  "remote.guide.tls.title": "VPS with TLS",
  "remote.guide.tls":
    "reinagent serve --host 0.0.0.0 --port 8443 --tls-cert /path/fullchain.pem --tls-key /path/privkey.pem — then open https://your-host:8443/?token=… (a certificate from Let's Encrypt, e.g. via certbot).",
  "remote.guide.proxy.title": "Caddy or nginx in front",
  "remote.guide.proxy":
    "Keep ReinAgent on 127.0.0.1 and turn on “Behind a trusted reverse proxy”. The proxy must pass the Host header and the WebSocket upgrade.",
  "remote.guide.tailscale.title": "Tailscale",
  "remote.guide.tailscale":
    "tailscale serve --bg http://127.0.0.1:PORT serves it over HTTPS on your tailnet only (https://machine.tailnet.ts.net); tailscale cert makes a certificate for --tls-cert/--tls-key instead.",
  "remote.guide.cloudflare.title": "Cloudflare Tunnel",
  "remote.guide.cloudflare":
    "cloudflared tunnel --url http://127.0.0.1:PORT (or a named tunnel) gives an HTTPS address without opening a port; WebSockets pass through. Add Cloudflare Access if others could guess the address.",
  "remote.revoked.title": "This device was disconnected",
  "remote.revoked.text":
    "The access token was reset. Open the new link or scan the new QR code shown in Settings → Remote access on the computer running ReinAgent.",
  "remote.revoked.paste": "Paste the new link",
  "remote.revoked.open": "Open",
};
