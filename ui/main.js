/**
 * ReinAgent UI entry: applies display preferences, restores the task named in the
 * URL, connects to the server and renders the workbench into `#app`.
 */
import { render } from "preact";
import { App } from "./components/App.js";
import { html } from "./html.js";
import { connect } from "./state/connection.js";
import { applyPrefs } from "./state/prefs.js";
import { initNavigation } from "./state/tasks.js";

applyPrefs();
initNavigation();
const root = document.getElementById("app");
if (!root) throw new Error("ReinAgent: the page has no #app element");
render(html`<${App} />`, root);
connect();
