/** 设置 → 远程访问，以及令牌重置后的“需重新配对”页面。 */
export default {
  "settings.tab.remote": "远程访问",
  "remote.title": "远程访问",
  "remote.loading": "加载中…",
  "remote.error": "远程访问：{message}",
  "remote.listen": "监听 {host}:{port}（{scheme}）。",
  "remote.listenAll": "同一网络中的其他设备可以访问。",
  "remote.listenLocal":
    "只有本机可以连接。要在局域网中用手机访问，请用 reinagent serve --host 0.0.0.0 启动（或在前面放反向代理或隧道，见下文）。",
  "remote.urls": "地址",
  "remote.noQr":
    "没有二维码：手机无法打开本机地址（127.0.0.1）。按上文所说在局域网中监听后即可获得。",
  "remote.url.local": "运行 ReinAgent 的电脑",
  "remote.url.network": "网络（{iface}）",
  "remote.url.networkPlain": "网络",
  "remote.showQr": "显示二维码",
  "remote.copy": "复制链接",
  "remote.copied": "已复制",
  "remote.qrFor": "用手机相机扫描即可打开并配对：{address}",
  "remote.qrSecret": "链接和二维码包含访问令牌：拿到它的人就能控制这台电脑上的智能体。",
  "remote.justReset": "令牌已重置。其他所有设备都已断开；这是新的二维码。",
  "remote.clients": "当前连接",
  "remote.clientsNone": "没有已连接的客户端。",
  "remote.you": "本设备",
  "remote.since": "自 {time}",
  "remote.kind.desktop": "桌面",
  "remote.kind.phone": "手机",
  "remote.kind.tablet": "平板",
  "remote.kind.cli": "命令行",
  "remote.kind.mcp": "MCP 客户端",
  "remote.kind.unknown": "未知",
  "remote.reset": "重置访问令牌",
  "remote.resetHelp": "生成新令牌。所有设备都会断开，需要用新链接或二维码重新配对。",
  "remote.resetConfirm": "断开所有设备并生成新令牌？",
  "remote.resetDo": "重置",
  "remote.proxy": "位于可信反向代理之后",
  "remote.proxyHelp":
    "从 X-Forwarded-For 读取客户端地址（从 X-Forwarded-Host 读取主机名），仅限来自本机（代理）的请求。当 Caddy、nginx、Tailscale serve 或 cloudflared 转发到 127.0.0.1 上的 ReinAgent 时请打开：否则所有远程客户端看起来都像本机，输错令牌也不会被锁定。",
  "remote.settingsError":
    "无法读取 remote.json（{error}）；文件保持原样，修复或删除之前此开关为关闭。",
  "remote.tokenNote":
    "令牌以明文保存在 {file}（仅你可读），因为 ReinAgent 重启后还要再次打印链接、绘制此二维码；客户端按其 SHA-256 哈希做常量时间比对。",
  "remote.guide": "连接方式",
  "remote.guide.lan.title": "同一网络（局域网）",
  "remote.guide.lan":
    "运行 reinagent serve --host 0.0.0.0 并扫描二维码。家里用明文 HTTP 可以，但流量（和令牌）不加密，而且浏览器只在 HTTPS 下允许安装应用、离线页面和推送通知。",
  "remote.guide.tls.title": "带 TLS 的 VPS",
  "remote.guide.tls":
    "reinagent serve --host 0.0.0.0 --port 8443 --tls-cert /path/fullchain.pem --tls-key /path/privkey.pem —— 然后打开 https://你的主机:8443/?token=…（证书可用 certbot 从 Let's Encrypt 获取）。",
  "remote.guide.proxy.title": "前置 Caddy 或 nginx",
  "remote.guide.proxy":
    "让 ReinAgent 保持在 127.0.0.1，并打开“位于可信反向代理之后”。代理必须传递 Host 头和 WebSocket 升级。",
  "remote.guide.tailscale.title": "Tailscale",
  "remote.guide.tailscale":
    "tailscale serve --bg http://127.0.0.1:端口 只在你的 tailnet 内通过 HTTPS 提供（https://机器名.tailnet.ts.net）；也可以用 tailscale cert 生成证书给 --tls-cert/--tls-key。",
  "remote.guide.cloudflare.title": "Cloudflare Tunnel",
  "remote.guide.cloudflare":
    "cloudflared tunnel --url http://127.0.0.1:端口（或命名隧道）无需开放端口即可获得 HTTPS 地址；WebSocket 可以通过。若别人可能猜到地址，请加上 Cloudflare Access。",
  "remote.revoked.title": "本设备已断开",
  "remote.revoked.text":
    "访问令牌已被重置。请打开新链接，或扫描运行 ReinAgent 的电脑上 设置 → 远程访问 中显示的新二维码。",
  "remote.revoked.paste": "粘贴新链接",
  "remote.revoked.open": "打开",
};
