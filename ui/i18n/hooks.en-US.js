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
  "hooks.trust": "Trust these hooks",
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
  "hooks.note.failure.timeout": "{event} hook failed: timed out after {s} s",
  "hooks.note.failure.exit": "{event} hook failed: exited with code {code}",
  "hooks.note.failure.start": "{event} hook failed: could not start: {message}",
  "hooks.note.failure.json": "{event} hook failed: printed JSON that does not parse: {message}",
  "hooks.note.failure.signal": "{event} hook failed: killed by {signal}",
  "hooks.note.failure.stopped": "{event} hook was stopped with the run",
  "hooks.note.untrusted": "{n} workspace hook(s) in {path} did not run: they are not trusted yet.",
  "hooks.note.changed":
    "The hooks in {path} changed since you trusted them ({n} now); the new ones did not run.",
  "hooks.note.invalid": "Hooks not run: {error}.",
  "hooks.note.kept": "The {kept} hook(s) you trusted before still run until you review the change.",
  "hooks.note.review":
    "Review them in the banner or Settings → Hooks, or run `reinagent hooks trust`.",
  "hooks.note.blocked": "A UserPromptSubmit hook blocked this prompt: {reason}",
  "hooks.note.continue": "A Stop hook sent the agent back to work: {reason}",
  "hooks.note.message": "{text}",
  "hooks.error": "Hooks: {message}",
};
