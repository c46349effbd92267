/** Command safety: notices of lowered safety, Settings → General, unsandboxed commands. */
export default {
  "safety.notice": "Safety lowered by {by} · {time}",
  "safety.change.sandboxLevel": "Shell sandbox: {from} → {to}",
  "safety.change.sandboxNetwork": "Network inside the shell sandbox turned on",
  "safety.change.defaultApproval": "Default approval mode: {from} → {to}",
  "safety.change.taskApproval": "Approval mode of “{task}”: {from} → {to}",
  "safety.change.taskSandbox": "Shell sandbox of “{task}”: {from} → {to}",
  "safety.change.toolPolicy": "{tool} is always allowed in “{task}”",
  "safety.change.mcpServer": "MCP server {id} runs: {target}",
  "safety.change.mcpPolicy": "Every tool of the MCP server {id} is always allowed",
  "safety.change.mcpToolPolicy": "The MCP tool {id}/{tool} is always allowed",
  "safety.change.envAllow": "Commands may now see {names}",
  "safety.change.hiddenPaths": "No longer hidden from commands: {paths}",
  "safety.level.off": "off",
  "safety.level.workspace-write": "workspace write",
  "safety.level.read-only": "read-only",
  "safety.title": "What commands can see",
  "safety.intro":
    "Commands the agent runs never get the provider keys, ReinAgent's data folder (token, database, uploads, checkpoints) or the server's own processes.",
  "safety.sandboxed": "Commands run inside the bubblewrap sandbox.",
  "safety.unsandboxed.off":
    "The shell sandbox is off: commands run as you and can read everything you can, including ReinAgent's data folder. Only the environment below is filtered.",
  "safety.unsandboxed.unavailable":
    "No sandbox is available on this machine ({reason}): commands run as you. Only the environment below is filtered.",
  "safety.withheld": "Withheld from commands ({n})",
  "safety.withheld.none": "No variable of the server's environment is withheld.",
  "safety.reason.provider": "a provider key",
  "safety.reason.reinagent": "ReinAgent's own",
  "safety.reason.deno": "Deno permission/prompt control",
  "safety.reason.secret": "looks like a secret",
  "safety.allow.label": "Let these variables through",
  "safety.allow.help":
    "Names separated by spaces or commas, e.g. GH_TOKEN. Provider keys and ReinAgent's variables are never let through.",
  "safety.allow.bad": "Not a variable name: {name}",
  "safety.hidden.label": "Hidden from commands",
  "safety.hidden.help":
    "One path per line (absolute, or ~/ for your home). ReinAgent's data folder is always hidden.",
  "safety.hidden.bad": "Not an absolute or ~/ path: {path}",
  "safety.save": "Save",
  "safety.saved": "Saved",
  "safety.recent": "Recent safety changes",
  "safety.recent.item": "{time} · {by}: {what}",
  "safety.loading": "Loading…",
  "approval.kind.unsandboxed": "runs without a sandbox",
  "approval.unsandboxed.title": "Commands in this task run unsandboxed, as you",
  "approval.unsandboxed.off":
    "The shell sandbox is set to off, so this command and the next ones can read and change anything you can. Allow once for this task?",
  "approval.unsandboxed.unavailable":
    "There is no sandbox on this machine (bubblewrap is missing or cannot run), so this command and the next ones can read and change anything you can. Allow once for this task?",
  "approval.unsandboxed.editor":
    "The editor connected to this task runs its commands in its own terminal, outside ReinAgent's sandbox, so this command and the next ones can read and change anything you can. Allow once for this task?",
  "approval.unsandboxed.allow": "Allow for this task",
  "approval.unsandboxed.note": "Runs without a sandbox, as you",
  "approval.menu.unsandboxed.off":
    "Shell sandbox is off: commands run as you. In Full access you are asked once per task.",
  "approval.menu.unsandboxed.unavailable":
    "No sandbox on this machine: commands run as you. In Full access you are asked once per task.",
  "sandbox.badge": "No sandbox",
  "sandbox.badge.title":
    "Bubblewrap cannot run on this machine right now: commands would run as you. ReinAgent tries again before the next command.",
  "sandbox.task.title": "Shell sandbox of this task",
  "rules.title": "Rules",
  "rules.help":
    "Allow, ask or deny tool calls by pattern, before the approval mode decides. A deny always wins; a command is judged part by part (a && b, pipes, $(…)), and is allowed only when every part is. Rules for one task apply to it alone; “Always allow” on its approval cards adds them too.",
  "rules.task": "This task: {title}",
  "rules.taskHelp":
    "Only for the task shown. Its other tool rules (a whole tool allowed) are in the approval menu.",
  "rules.global": "All projects",
  "rules.project": "Project {name}",
  "rules.none": "No rules.",
  "rules.rule": "Rule",
  "rules.policy": "What the rule does",
  "rules.allow": "Allow",
  "rules.ask": "Ask",
  "rules.deny": "Deny",
  "rules.add": "Add rule",
  "rules.remove": "Remove rule",
  "rules.save": "Save",
  "rules.saved": "Saved.",
  "rules.invalid": "Not a rule: {rule}. Write a tool name, or tool(pattern).",
};
