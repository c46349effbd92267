/** 插件：设置 → 插件。 */
export default {
  "settings.tab.plugins": "插件",
  "plugins.title": "插件",
  "plugins.intro":
    "数据目录 plugins/ 或项目 .reinagent/plugins/ 下带 plugin.json 的文件夹，可添加斜杠命令、技能和钩子。插件默认关闭，需手动开启；其钩子须经你信任后才会运行，钩子一旦改动会再次询问。",
  "plugins.empty":
    "未找到插件。在数据目录的 plugins/（或项目的 .reinagent/plugins/）中放入带 plugin.json 的文件夹，例如：",
  "plugins.enabled": "已启用",
  "plugins.scope.user": "你的",
  "plugins.scope.workspace": "项目",
  "plugins.state.ok": "就绪",
  "plugins.state.untrusted": "钩子未信任",
  "plugins.state.changed": "钩子自信任后已改动",
  "plugins.state.invalid": "无效",
  "plugins.state.refused": "已拒绝",
  "plugins.commands": "命令",
  "plugins.skills": "技能",
  "plugins.hooks": "钩子（{n}）：",
  "plugins.trust": "信任这些钩子",
  "plugins.error": "插件：{message}",
  "skills.source.plugin": "插件",
  "hooks.note.plugin.untrusted":
    "插件 {name} 的 {n} 个钩子没有运行：尚未信任。请在 设置 → 插件 中审阅，或运行 `reinagent plugins trust {name}`。",
  "hooks.note.plugin.changed":
    "插件 {name} 的 {n} 个钩子没有运行：信任后已改动。请在 设置 → 插件 中审阅，或运行 `reinagent plugins trust {name}`。",
};
