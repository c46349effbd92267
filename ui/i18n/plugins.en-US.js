/** Plugins: Settings → Plugins. */
export default {
  "settings.tab.plugins": "Plugins",
  "plugins.title": "Plugins",
  "plugins.intro":
    "Folders with a plugin.json in plugins/ of the data folder or a project's .reinagent/plugins/, adding slash commands, skills and hooks. A plugin is off until you turn it on; its hooks run only once you trust them, and a change to them asks again.",
  "plugins.empty":
    "No plugins found. Put a folder with a plugin.json into plugins/ in the data folder (or .reinagent/plugins/ in a project), for example:",
  "plugins.enabled": "Enabled",
  "plugins.scope.user": "Yours",
  "plugins.scope.workspace": "Project",
  "plugins.state.ok": "Ready",
  "plugins.state.untrusted": "Hooks not trusted",
  "plugins.state.changed": "Hooks changed since trusted",
  "plugins.state.invalid": "Invalid",
  "plugins.state.refused": "Refused",
  "plugins.commands": "Commands",
  "plugins.skills": "Skills",
  "plugins.hooks": "Hooks ({n}):",
  "plugins.trust": "Trust these hooks",
  "plugins.error": "Plugins: {message}",
  "skills.source.plugin": "Plugin",
  "hooks.note.plugin.untrusted":
    "The {n} hook(s) of plugin {name} did not run: they are not trusted yet. Review them in Settings → Plugins, or run `reinagent plugins trust {name}`.",
  "hooks.note.plugin.changed":
    "The {n} hook(s) of plugin {name} did not run: they changed since you trusted them. Review them in Settings → Plugins, or run `reinagent plugins trust {name}`.",
};
