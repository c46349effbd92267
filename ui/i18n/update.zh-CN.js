/** 自更新：关于页的提示行。 */
export default {
  "update.available": "有可用更新：{version}。",
  "update.how": "安装命令：",
  "update.current": "已是最新版本（{version}）。",
  "update.error": "无法检查更新：{message}",
};
