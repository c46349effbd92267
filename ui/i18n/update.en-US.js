/** Self-update: About's line. */
export default {
  "update.available": "Update available: {version}.",
  "update.how": "Install it with",
  "update.current": "Up to date ({version}).",
  "update.error": "Could not check for updates: {message}",
};
