/**
 * ReinAgent UI entry: applies display preferences, restores the task named in the
 * URL, connects to the server and renders the workbench into `#app`.
 */
import { effect } from "@preact/signals";
import { render } from "preact";
import { App } from "./components/App.js";
import { html } from "./html.js";
import { loadLang, t } from "./i18n/index.js";
import { connect } from "./state/connection.js";
import { applyPrefs, lang } from "./state/prefs.js";
import { currentId, currentTask, initNavigation } from "./state/tasks.js";
import { homeActive } from "./components/home/phone.js";
import { registerServiceWorker } from "./state/remote.js";
import { withBadge } from "./state/notify.js";

applyPrefs();
initNavigation();
effect(() => {
  const task = currentTask.value;
  const what = homeActive.value
    ? t("home.title")
    : currentId.value === null
    ? t("header.draft")
    : task?.title || t("task.untitled");
  // "(2) …": tasks waiting for you or unread, visible in the tab strip and task switcher.
  document.title = withBadge(`${what} · ${t("brand")}`);
});
// A language other than English is a chunk of its own: wait for it rather than show
// English first and switch. The first screen's English is in this script; the rest
// comes with the first view loaded on demand.
if (lang.value !== "en-US") await loadLang(lang.value);
const root = document.getElementById("app");
if (!root) throw new Error("ReinAgent: the page has no #app element");
render(html`<${App} />`, root);
connect();
registerServiceWorker();
