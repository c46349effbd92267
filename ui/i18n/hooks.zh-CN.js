/** 钩子：设置 → 钩子、信任提示与回合上的通知。 */
export default {
  "settings.tab.hooks": "钩子",
  "hooks.title": "钩子",
  "hooks.intro":
    "在智能体各个步骤运行的命令（工具调用前后、发送提示时、任务开始或结束时），来自数据目录中的 config.json 和各项目的 .reinagent/config.json。它们与智能体的命令运行在同一沙箱中。项目的钩子只有在你信任后才会运行；钩子改动后，已信任的钩子继续运行，新的钩子等待你审阅。",
  "hooks.empty":
    '尚未配置钩子。在项目的 .reinagent/config.json（或数据目录的 config.json）中添加 "hooks" 列表，例如：',
  "hooks.kind.user": "你的",
  "hooks.kind.workspace": "项目",
  "hooks.state.user": "运行",
  "hooks.state.trusted": "已信任",
  "hooks.state.untrusted": "未信任",
  "hooks.state.changed": "信任后已改动",
  "hooks.state.invalid": "无效",
  "hooks.timeout": "{s} 秒",
  "hooks.trust": "信任并运行",
  "hooks.offer.title": "项目钩子",
  "hooks.offer.text": "{file} 定义了 {n} 个尚未信任的钩子，它们没有运行。",
  "hooks.offer.changed":
    "{file} 中的钩子在你信任后已改动（现有 {n} 个）。在你信任之前，新的钩子不会运行。",
  "hooks.offer.why":
    "只有在你清楚这些命令做什么时才信任它们：它们会在智能体的步骤中在你的机器上运行。",
  "hooks.offer.dismiss": "暂不",
  "hooks.kept": "在你审阅改动前仍在运行（之前已信任）：",
  "hooks.now": "文件中现在的钩子：",
  "hooks.none": "（无：文件中现在没有钩子）",
  "hooks.note": "钩子",
  "hooks.error": "钩子：{message}",
};
