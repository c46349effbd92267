/**
 * The actions of the command palette, built from what the app can do now: only
 * actions that apply are listed (a task's panels while a task is shown, compact and
 * rewind while it is idle …). Each runs an existing action of the app; nothing here
 * has behaviour of its own.
 *
 * @typedef {import("../../state/palette_model.js").PaletteAction & {run: () => void}} Action
 */
import { t } from "../../i18n/index.js";
import { cycleTheme, toggleLang } from "../../state/prefs.js";
import { newDraft } from "../../state/projects.js";
import { openSearch } from "../../state/search.js";
import { closeSettings, openSettings, settingsOpen, settingsTab } from "../../state/settings.js";
import { currentId, entries, openTask, sortedTasks } from "../../state/tasks.js";
import { openTab } from "../../state/panel.js";
import { closeTerminalDock, openTerminalDock, termDockOpen } from "../../state/terminal.js";
import { compactNow } from "../../state/context.js";
import { openRewind } from "../../state/rewind.js";
import { isRunning } from "../../state/run_actions.js";
import { keyOf } from "../../state/shortcuts.js";
import { openOverlay } from "../../state/palette.js";
import { jumpQuestion } from "./jump.js";
import { showFind } from "../search/FindBar.js";

/** Settings tabs, in the Settings view's order. */
const SETTINGS_TABS = /** @type {const} */ ([
  "providers",
  "mcp",
  "assistants",
  "skills",
  "memory",
  "hooks",
  "automations",
  "usage",
  "remote",
  "general",
  "data",
  "about",
]);

const PANEL_LABEL = /** @type {const} */ ({
  git: "palette.panel.git",
  files: "palette.panel.files",
  subagents: "palette.panel.subagents",
});

/** Tasks listed for "Go to task" (the most recent first). */
const TASKS_MAX = 50;

/** @returns {Action[]} */
export function paletteActions() {
  const id = currentId.value;
  const inTask = id !== null && !settingsOpen.value;
  const idle = !isRunning.value;
  const g = { app: t("palette.group.app"), task: t("palette.group.task") };
  /** @type {Action[]} */
  const out = [
    {
      id: "newTask",
      group: g.app,
      title: t("palette.newTask"),
      keywords: "create start draft",
      run: () => {
        newDraft();
        closeSettings();
      },
    },
    {
      id: "search",
      group: g.app,
      title: t("palette.search"),
      shortcut: keyOf("search"),
      run: () => openSearch(),
    },
    {
      id: "theme",
      group: g.app,
      title: t("palette.theme"),
      keywords: "dark light appearance",
      run: cycleTheme,
    },
    {
      id: "lang",
      group: g.app,
      title: t("palette.lang"),
      keywords: "language 中文 english",
      run: toggleLang,
    },
    {
      id: "shortcuts",
      group: g.app,
      title: t("palette.shortcuts"),
      keywords: "keys keyboard help",
      shortcut: keyOf("shortcuts"),
      run: () => openOverlay("shortcuts"),
    },
  ];
  if (inTask) {
    const hasQuestions = entries.value.some((e) => e.role === "user");
    out.push(
      {
        id: "find",
        group: g.task,
        title: t("palette.find"),
        shortcut: keyOf("find"),
        run: () => showFind(),
      },
      {
        id: "terminal",
        group: g.task,
        title: t(termDockOpen.value ? "palette.terminalClose" : "palette.terminalOpen"),
        keywords: "shell console pty",
        run: () => termDockOpen.value ? closeTerminalDock() : openTerminalDock(),
      },
      ...(/** @type {const} */ (["git", "files", "subagents"])).map((tab) => ({
        id: `panel:${tab}`,
        group: g.task,
        title: t(PANEL_LABEL[tab]),
        keywords: "panel open",
        run: () => openTab(tab, id),
      })),
      {
        id: "trajectory",
        group: g.task,
        title: t("palette.trajectory"),
        keywords: "steps tools timeline trace",
        run: () => openOverlay("trajectory"),
      },
    );
    if (hasQuestions) {
      out.push(
        {
          id: "questions",
          group: g.task,
          title: t("palette.questions"),
          keywords: "navigator jump messages",
          run: () => openOverlay("questions"),
        },
        {
          id: "prevQuestion",
          group: g.task,
          title: t("palette.prevQuestion"),
          shortcut: keyOf("prevQuestion"),
          run: () => jumpQuestion(-1),
        },
        {
          id: "nextQuestion",
          group: g.task,
          title: t("palette.nextQuestion"),
          shortcut: keyOf("nextQuestion"),
          run: () => jumpQuestion(1),
        },
      );
    }
    if (idle && hasQuestions) {
      const lastUser = [...entries.value].reverse().find((e) => e.role === "user");
      out.push(
        {
          id: "compact",
          group: g.task,
          title: t("palette.compact"),
          keywords: "summarise context",
          run: () => compactNow(id),
        },
        {
          id: "rewind",
          group: g.task,
          title: t("palette.rewind"),
          keywords: "undo revert checkpoint",
          run: () => lastUser && openRewind(lastUser.id),
        },
      );
    }
  }
  for (const tab of SETTINGS_TABS) {
    out.push({
      id: `settings:${tab}`,
      group: g.app,
      title: t("palette.settingsTab", { tab: t(/** @type {const} */ (`settings.tab.${tab}`)) }),
      keywords: `settings preferences ${tab}`,
      run: () => {
        settingsTab.value = tab;
        openSettings();
      },
    });
  }
  for (const task of sortedTasks.value.slice(0, TASKS_MAX)) {
    if (task.id === id) continue;
    out.push({
      id: `task:${task.id}`,
      group: t("palette.group.tasks"),
      title: t("palette.goTask", { title: task.title || t("task.untitled") }),
      run: () => {
        closeSettings();
        openTask(task.id, true);
      },
    });
  }
  return out;
}
