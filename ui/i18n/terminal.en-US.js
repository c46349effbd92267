/**
 * English strings of the terminal dock. Merged into en-US by en.js; every key must
 * exist in terminal.zh-CN.js.
 */
export default {
  "terminal.open": "Terminal",
  "terminal.title": "Terminal",
  "terminal.hide": "Hide terminal",
  "terminal.tabs": "Terminals",
  "terminal.new": "New terminal",
  "terminal.closeTab": "Close terminal {title}",
  "terminal.closeAnyway": "Close it and stop them?",
  "terminal.closeKill": "Close and stop",
  "terminal.notSandboxed": "Your own shell on the server — not sandboxed",
  "terminal.copy": "Copy",
  "terminal.paste": "Paste",
  "terminal.pasteDenied":
    "The browser did not allow reading the clipboard; paste with Ctrl+Shift+V.",
  "terminal.unavailable": "The terminal is unavailable on this server: {reason}",
  "terminal.none": "No terminal open. Start one with New terminal.",
  "terminal.starting": "Starting the shell…",
  "terminal.loadFailed": "The terminal could not be loaded: {error}",
  "terminal.resize": "Terminal height",
  "terminal.extraKeys": "Extra keys",
  "terminal.key.esc": "Escape",
  "terminal.key.tab": "Tab",
  "terminal.key.ctrl": "Control (applies to the next key)",
  "terminal.key.left": "Left arrow",
  "terminal.key.up": "Up arrow",
  "terminal.key.down": "Down arrow",
  "terminal.key.right": "Right arrow",
  "terminal.key.pipe": "Pipe",
  "terminal.key.tilde": "Tilde",
};
