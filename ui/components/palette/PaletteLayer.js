/**
 * The command palette's layer, mounted once by App: the global shortcuts of the
 * registry (palette_model.js SHORTCUTS; search and find are the search layer's) and
 * the overlays they open — palette, shortcut help, questions list, trajectory.
 * Shortcuts without a modifier never fire while typing in a text field or the
 * terminal.
 */
import { useEffect } from "preact/hooks";
import { html } from "../../html.js";
import { shortcutFor } from "../../state/palette_model.js";
import { shortcutList } from "../../state/shortcuts.js";
import { closeOverlay, isMac, openOverlay, overlay } from "../../state/palette.js";
import { currentId } from "../../state/tasks.js";
import { settingsOpen } from "../../state/settings.js";
import { searchOpen } from "../../state/overlays.js";
import { lazy } from "../lazy.js";
import { jumpQuestion } from "./jump.js";

const CommandPalette = lazy(() => import("./CommandPalette.js"), "CommandPalette");
const ShortcutsHelp = lazy(() => import("./ShortcutsHelp.js"), "ShortcutsHelp");
const QuestionList = lazy(() => import("./QuestionList.js"), "QuestionList");
const TrajectoryView = lazy(() => import("./TrajectoryView.js"), "TrajectoryView");

/** Whether focus is somewhere keys are typed (a field, an editor, the terminal). */
function typing() {
  const el = /** @type {HTMLElement|null} */ (document.activeElement);
  if (!el) return false;
  const tag = el.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || el.isContentEditable ||
    el.closest(".xterm") !== null;
}

export function PaletteLayer() {
  useEffect(() => {
    const onKey = (/** @type {KeyboardEvent} */ e) => {
      if (e.isComposing || e.defaultPrevented) return;
      const id = shortcutFor(e, { editable: typing(), mac: isMac }, shortcutList.value);
      if (id === "palette") {
        e.preventDefault();
        if (overlay.value === "palette") closeOverlay();
        else openOverlay("palette");
      } else if (id === "shortcuts" && overlay.value === null) {
        e.preventDefault();
        openOverlay("shortcuts");
      } else if (
        (id === "prevQuestion" || id === "nextQuestion") && overlay.value === null &&
        currentId.value !== null && !settingsOpen.value
      ) {
        e.preventDefault();
        jumpQuestion(id === "prevQuestion" ? -1 : 1);
      }
    };
    document.addEventListener("keydown", onKey);
    // One overlay at a time: the search dialog (Ctrl/Cmd+K) replaces the palette's.
    const unsub = searchOpen.subscribe((open) => open && closeOverlay());
    return () => {
      document.removeEventListener("keydown", onKey);
      unsub();
    };
  }, []);
  const which = overlay.value;
  if (which === "palette") return html`<${CommandPalette} />`;
  if (which === "shortcuts") return html`<${ShortcutsHelp} />`;
  if (which === "questions") return html`<${QuestionList} />`;
  if (which === "trajectory") return html`<${TrajectoryView} />`;
  return null;
}
