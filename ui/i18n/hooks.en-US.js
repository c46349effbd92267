/** Hooks: Settings → Hooks, the trust prompt and the notices on a turn. */
export default {
  "settings.tab.hooks": "Hooks",
  "hooks.title": "Hooks",
  "hooks.intro":
    "Commands that run at the agent's steps (before and after a tool, when you send a prompt, when a task starts or stops), from your config.json in the data folder and each project's .reinagent/config.json. They run in the same sandbox as the agent's commands. A project's hooks run only once you trust them; after a change, the hooks you trusted keep running and the new ones wait for your review.",
  "hooks.empty":
    'No hooks configured. Add a "hooks" list to .reinagent/config.json in a project (or to config.json in the data folder), for example:',
  "hooks.kind.user": "Yours",
  "hooks.kind.workspace": "Project",
  "hooks.state.user": "Runs",
  "hooks.state.trusted": "Trusted",
  "hooks.state.untrusted": "Not trusted",
  "hooks.state.changed": "Changed since trusted",
  "hooks.state.invalid": "Invalid",
  "hooks.timeout": "{s} s",
  "hooks.trust": "Trust and run",
  "hooks.offer.title": "Project hooks",
  "hooks.offer.text": "{file} defines {n} hook(s) that are not trusted yet. They did not run.",
  "hooks.offer.changed":
    "The hooks in {file} changed since you trusted them ({n} now). The new ones do not run until you trust them.",
  "hooks.offer.why":
    "Trust them only if you know what these commands do: they run on your machine at the agent's steps.",
  "hooks.offer.dismiss": "Not now",
  "hooks.kept": "Still running until you review the change (trusted before):",
  "hooks.now": "Now in the file:",
  "hooks.none": "(none: the file has no hooks now)",
  "hooks.note": "Hook",
  "hooks.error": "Hooks: {message}",
};
