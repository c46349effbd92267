/**
 * The right panel: a file preview, the changes of a tool call, the
 * git panel, the file tree or the sub-agents, opened through the `rightPanel` signal;
 * a row of tabs (Preview, Diff, Git, Files, Sub-agents) moves between them. Desktop: beside the conversation, resizable
 * by a drag handle (pointer, or arrow keys when focused; the width is remembered),
 * maximise/restore over the main area. Phone (< 768 px): a full-screen sheet with a
 * back button. Escape closes it and focus returns to what opened it.
 */
import { useEffect, useRef } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { rightPanel } from "../../state/overlays.js";
import {
  clampWidth,
  closePanel,
  PANEL_MIN,
  panelMax,
  panelWidth,
  setPanelWidth,
} from "../../state/panel.js";
import { currentId } from "../../state/tasks.js";
import { Icon, IconClose } from "../Icons.js";
import { IconBack } from "../settings/controls.js";
import { IconFile } from "../tools/ToolIcons.js";
import { DiffPane } from "./DiffPane.js";
import { FileView } from "./FileView.js";
import { SubagentPane } from "../subagents/SubagentPane.js";
import { IconAgent } from "../subagents/SubagentIcons.js";
import { GitPane } from "./GitPane.js";
import { FilesPane } from "./FilesPane.js";
import { SubagentList } from "./SubagentList.js";
import { PanelTabs, TAB_LABEL } from "./PanelTabs.js";

const IconMax = (/** @type {{size?: number}} */ p) =>
  html`<${Icon} ...${p} d=${["M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5"]} />`;
const IconRestore = (/** @type {{size?: number}} */ p) =>
  html`<${Icon} ...${p} d=${["M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5"]} />`;

const STEP = 32;

/** Mounted by App; renders nothing while closed or for another task than the shown one. */
export function RightPanel() {
  const view = rightPanel.value;
  if (!view || view.taskId !== currentId.value) return null;
  const key = `${view.kind}\n${view.taskId}\n${view.path}\n${
    view.kind === "diff"
      ? `${view.callId}\n${view.turnId ?? ""}`
      : view.kind === "subagent"
      ? view.runId
      : ""
  }`;
  return html`<${Panel} key=${key} view=${view} />`;
}

/** @param {{view: import("../../state/overlays.js").PanelView}} props */
function Panel({ view }) {
  const ref = useRef(/** @type {HTMLElement|null} */ (null));
  const max = panelMax.value;
  const width = clampWidth(panelWidth.value, typeof innerWidth === "number" ? innerWidth : 1280);

  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
    // Escape also works when focus fell back to the page (e.g. a removed button).
    const onKey = (/** @type {KeyboardEvent} */ e) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      if (document.activeElement === document.body || document.activeElement === null) {
        closePanel();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  /** @param {PointerEvent} e */
  const startDrag = (e) => {
    if (e.button !== 0) return;
    const handle = /** @type {HTMLElement} */ (e.currentTarget);
    handle.setPointerCapture(e.pointerId);
    const x0 = e.clientX;
    const w0 = ref.current?.getBoundingClientRect().width ?? width;
    document.documentElement.dataset.resizing = "col";
    /** @param {PointerEvent} m */
    const move = (m) => {
      panelWidth.value = clampWidth(w0 + (x0 - m.clientX), innerWidth);
    };
    const up = () => {
      handle.removeEventListener("pointermove", move);
      handle.removeEventListener("pointerup", up);
      handle.removeEventListener("pointercancel", up);
      delete document.documentElement.dataset.resizing;
      setPanelWidth(panelWidth.value);
    };
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", up);
    handle.addEventListener("pointercancel", up);
    e.preventDefault();
  };

  /** @param {KeyboardEvent} e */
  const onHandleKey = (e) => {
    const by = e.key === "ArrowLeft" ? STEP : e.key === "ArrowRight" ? -STEP : 0;
    if (by) setPanelWidth(width + by);
    else if (e.key === "Home") setPanelWidth(innerWidth);
    else if (e.key === "End") setPanelWidth(PANEL_MIN);
    else return;
    e.preventDefault();
  };

  const p = view.path || ".";
  const cut = p.replace(/\/+$/, "").lastIndexOf("/");
  const head = cut > 0 ? p.slice(0, cut + 1) : "";
  const base = cut > 0 ? p.slice(cut + 1) : p;
  const title = view.kind === "git" || view.kind === "files" || view.kind === "subagents"
    ? t(TAB_LABEL[view.kind])
    : view.kind === "subagent"
    ? t("subagent.panelTitle")
    : view.kind === "file"
    ? t("panel.preview")
    : view.turnId
    ? t("panel.turnChanges")
    : t("panel.changes");

  return html`
    <aside
      class=${`rpanel${max ? " rpanel-max" : ""}`}
      ref=${ref}
      tabindex="-1"
      role="complementary"
      aria-label=${view.path ? `${title}: ${p}` : title}
      data-testid="right-panel"
      data-kind=${view.kind}
      data-max=${max ? "true" : "false"}
      style=${`--rpanel-w: ${width}px`}
      onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
        if (e.key === "Escape" && !e.defaultPrevented) {
          e.stopPropagation();
          closePanel();
        }
      }}
    >
      ${!max && html`
        <div
          class="rpanel-handle"
          role="separator"
          aria-orientation="vertical"
          aria-label=${t("panel.resize")}
          title=${t("panel.resize")}
          aria-valuemin=${PANEL_MIN}
          aria-valuenow=${width}
          tabindex="0"
          data-testid="panel-resize"
          onPointerDown=${startDrag}
          onKeyDown=${onHandleKey}
        ></div>
      `}
      <header class="rpanel-head">
        <button
          type="button"
          class="icon-btn rpanel-back"
          data-testid="panel-back"
          aria-label=${t("panel.back")}
          title=${t("panel.back")}
          onClick=${closePanel}
        >
          <${IconBack} />
        </button>
        ${view.path !== "" && html`<span class="rpanel-kind">${title}</span>`}
        ${view.path !== ""
          ? html`
            <span class="rpanel-path" title=${p} data-testid="panel-path">
              ${view.kind === "subagent"
                ? html`<${IconAgent} size=${14} />`
                : html`<${IconFile} size=${14} />`}
              <span class="file-path"><span class="file-dir">${head}</span><span class="file-base"
                >${base}</span></span>
            </span>
          `
          : html`<span class="rpanel-grow"></span>`}
        <button
          type="button"
          class="icon-btn rpanel-maxbtn"
          data-testid="panel-max"
          aria-pressed=${max ? "true" : "false"}
          aria-label=${max ? t("panel.restore") : t("panel.maximise")}
          title=${max ? t("panel.restore") : t("panel.maximise")}
          onClick=${() => panelMax.value = !max}
        >
          ${max ? html`<${IconRestore} />` : html`<${IconMax} />`}
        </button>
        <button
          type="button"
          class="icon-btn rpanel-close"
          data-testid="panel-close"
          aria-label=${t("panel.close")}
          title=${t("panel.close")}
          onClick=${closePanel}
        >
          <${IconClose} />
        </button>
      </header>
      <${PanelTabs} view=${view} />
      <div class="rpanel-body" data-testid="panel-body">
        ${view.kind === "git"
          ? html`<${GitPane} taskId=${view.taskId} />`
          : view.kind === "files"
          ? html`<${FilesPane} taskId=${view.taskId} />`
          : view.kind === "subagents"
          ? html`<${SubagentList} taskId=${view.taskId} />`
          : view.kind === "subagent"
          ? html`<${SubagentPane} taskId=${view.taskId} runId=${view.runId} />`
          : view.kind === "file"
          ? html`<${FileView} taskId=${view.taskId} path=${view.path} />`
          : html`
            <${DiffPane}
              taskId=${view.taskId}
              path=${view.path}
              callId=${view.callId}
              turnId=${view.turnId}
            />
          `}
      </div>
    </aside>
  `;
}
