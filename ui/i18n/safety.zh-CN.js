/** 命令安全：安全性降低的通知、设置 → 通用、无沙箱命令。 */
export default {
  "safety.notice": "{by} 于 {time} 降低了安全设置",
  "safety.change.sandboxLevel": "Shell 沙箱：{from} → {to}",
  "safety.change.sandboxNetwork": "已允许沙箱内访问网络",
  "safety.change.defaultApproval": "默认审批模式：{from} → {to}",
  "safety.change.taskApproval": "任务「{task}」的审批模式：{from} → {to}",
  "safety.change.taskSandbox": "任务「{task}」的 Shell 沙箱：{from} → {to}",
  "safety.change.toolPolicy": "任务「{task}」中始终允许 {tool}",
  "safety.change.mcpServer": "MCP 服务器 {id} 将运行：{target}",
  "safety.change.mcpPolicy": "MCP 服务器 {id} 的所有工具始终允许",
  "safety.change.mcpToolPolicy": "MCP 工具 {id}/{tool} 始终允许",
  "safety.change.envAllow": "命令现在可以看到 {names}",
  "safety.change.hiddenPaths": "不再对命令隐藏：{paths}",
  "safety.level.off": "关闭",
  "safety.level.workspace-write": "工作区可写",
  "safety.level.read-only": "只读",
  "safety.title": "命令能看到什么",
  "safety.intro":
    "智能体运行的命令永远拿不到服务商密钥、ReinAgent 的数据目录（令牌、数据库、上传文件、检查点）以及服务器自身的进程信息。",
  "safety.sandboxed": "命令在 bubblewrap 沙箱中运行。",
  "safety.unsandboxed.off":
    "Shell 沙箱已关闭：命令以你的身份运行，能读取你能读取的一切，包括 ReinAgent 的数据目录。只有下面的环境变量会被过滤。",
  "safety.unsandboxed.unavailable":
    "本机没有可用的沙箱（{reason}）：命令以你的身份运行。只有下面的环境变量会被过滤。",
  "safety.withheld": "不传给命令的变量（{n}）",
  "safety.withheld.none": "服务器环境中没有需要拦截的变量。",
  "safety.reason.provider": "服务商密钥",
  "safety.reason.reinagent": "ReinAgent 自身的变量",
  "safety.reason.deno": "Deno 权限/提示控制",
  "safety.reason.secret": "看起来像密钥",
  "safety.allow.label": "允许传给命令的变量",
  "safety.allow.help":
    "变量名之间用空格或逗号分隔，例如 GH_TOKEN。服务商密钥和 ReinAgent 自身的变量永远不会放行。",
  "safety.allow.bad": "不是合法的变量名：{name}",
  "safety.hidden.label": "对命令隐藏",
  "safety.hidden.help":
    "每行一个路径（绝对路径，或以 ~/ 开头表示你的主目录）。ReinAgent 的数据目录始终隐藏。",
  "safety.hidden.bad": "不是绝对路径或 ~/ 路径：{path}",
  "safety.save": "保存",
  "safety.saved": "已保存",
  "safety.recent": "最近的安全设置变更",
  "safety.recent.item": "{time} · {by}：{what}",
  "safety.loading": "加载中…",
  "approval.kind.unsandboxed": "无沙箱运行",
  "approval.unsandboxed.title": "此任务中的命令将不经沙箱、以你的身份运行",
  "approval.unsandboxed.off":
    "Shell 沙箱已设为关闭，此命令及之后的命令可以读取和修改你能访问的一切。是否对此任务允许一次？",
  "approval.unsandboxed.unavailable":
    "本机没有沙箱（bubblewrap 未安装或无法运行），此命令及之后的命令可以读取和修改你能访问的一切。是否对此任务允许一次？",
  "approval.unsandboxed.editor":
    "连接到此任务的编辑器在它自己的终端中运行命令，不在 ReinAgent 的沙箱内，此命令及之后的命令可以读取和修改你能访问的一切。是否对此任务允许一次？",
  "approval.unsandboxed.allow": "对此任务允许",
  "approval.unsandboxed.note": "不经沙箱，以你的身份运行",
  "approval.menu.unsandboxed.off":
    "Shell 沙箱已关闭：命令以你的身份运行。完全访问模式下每个任务会询问一次。",
  "approval.menu.unsandboxed.unavailable":
    "本机没有沙箱：命令以你的身份运行。完全访问模式下每个任务会询问一次。",
  "sandbox.badge": "无沙箱",
  "sandbox.badge.title":
    "本机目前无法运行 bubblewrap：命令将以你的身份运行。ReinAgent 会在下一条命令前重新检测。",
  "sandbox.task.title": "此任务的 Shell 沙箱",
  "rules.title": "规则",
  "rules.help":
    "按模式允许、询问或拒绝工具调用，先于审批模式生效。拒绝始终优先；命令会被逐段判断（a && b、管道、$(…)），只有每一段都被允许时才允许。针对单个任务的规则可在审批卡片上通过“始终允许”添加。",
  "rules.global": "所有项目",
  "rules.project": "项目 {name}",
  "rules.none": "暂无规则。",
  "rules.rule": "规则",
  "rules.policy": "规则的作用",
  "rules.allow": "允许",
  "rules.ask": "询问",
  "rules.deny": "拒绝",
  "rules.add": "添加规则",
  "rules.remove": "删除规则",
  "rules.save": "保存",
  "rules.saved": "已保存。",
  "rules.invalid": "不是有效规则：{rule}。请写工具名，或 工具(模式)。",
};
