/** 出站代理：设置 → 通用 → 网络。 */
export default {
  "proxy.title": "网络",
  "proxy.url": "HTTP(S) 代理",
  "proxy.help":
    "ReinAgent 对外的所有请求（模型、联网工具、MCP 服务器、推送、WebDAV、更新）都经过它。留空：直连，除非启用系统代理。",
  "proxy.system": "此处未设代理时，使用系统代理（HTTP_PROXY / HTTPS_PROXY）",
  "proxy.systemIs": "此处未设代理时，使用系统代理（{proxy}）",
  "proxy.noProxy": "以下主机直连",
  "proxy.loopback": "本机地址也走代理（localhost、127.0.0.1）",
  "proxy.save": "保存",
  "proxy.saved": "已保存。",
};
