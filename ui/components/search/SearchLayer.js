/**
 * Search overlays and shortcuts, mounted once by App: the search dialog (Ctrl/Cmd+K),
 * the find bar (Ctrl/Cmd+F while a task is shown) and the context text viewer.
 */
import { useEffect } from "preact/hooks";
import { html } from "../../html.js";
import { searchOpen } from "../../state/overlays.js";
import { closeSearch, openSearch } from "../../state/search.js";
import { shortcutOf } from "../../state/search_model.js";
import { settingsOpen } from "../../state/settings.js";
import { FindBar, showFind } from "./FindBar.js";
import { preview, viewing } from "../../state/context.js";
import { lazy } from "../lazy.js";

const SearchDialog = lazy(() => import("./SearchDialog.js"), "SearchDialog");
const ContextViewer = lazy(() => import("./ContextViewer.js"), "ContextViewer");
const RequestPreview = lazy(() => import("./RequestPreview.js"), "RequestPreview");

export function SearchLayer() {
  useEffect(() => {
    const onKey = (/** @type {KeyboardEvent} */ e) => {
      const which = shortcutOf(e);
      if (which === "search") {
        e.preventDefault();
        if (searchOpen.value) closeSearch();
        else openSearch();
      } else if (which === "find" && !searchOpen.value && !settingsOpen.value) {
        // Without a task the browser's own find stays available.
        if (showFind()) e.preventDefault();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return html`
    ${searchOpen.value && html`<${SearchDialog} />`}
    <${FindBar} />
    ${viewing.value && html`<${ContextViewer} />`}
    ${preview.value && html`<${RequestPreview} />`}
  `;
}
