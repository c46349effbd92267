/**
 * One turn: the user message, the status strip, the process (thinking,
 * tool cards, intermediate text — expanded while live, collapsed after), then the
 * final answer, the files changed, trailing error lines, the max-steps notice and the
 * bands of compactions, rewinds and `/clear`s that happened in it. Memoised: a finished
 * turn re-renders only when one of its entries (or the language) changes, so while
 * a run streams only the live turn renders.
 *
 * @typedef {import("../state/timeline_model.js").Turn} TurnData
 * @typedef {import("../state/timeline_model.js").ProcessItem} ProcessItem
 * @typedef {import("../../protocol/index.ts").RunState} RunState
 * @typedef {{turn: TurnData, live: boolean, run: RunState|null, waiting: boolean,
 *   canAct: boolean, lang: string}} Props
 */
import { HookNotes } from "./hooks/HookNotes.js";
import { Component } from "preact";
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { analyseTurn, fileChanges, netFileChanges } from "../state/timeline_model.js";
import { CompactBand } from "./timeline/CompactBand.js";
import { ClearBand } from "./timeline/ClearBand.js";
import { FileChanges } from "./timeline/FileChanges.js";
import { RewindBand } from "./timeline/RewindBand.js";
import { RewoundContext } from "./timeline/rewound.js";
import { EntryView } from "./EntryView.js";
import { ErrorLine } from "./ErrorLine.js";
import { FinalAnswer } from "./FinalAnswer.js";
import { StatusStrip } from "./StatusStrip.js";
import { ToolCard } from "./tools/ToolCard.js";
import { TurnNotice } from "./TurnNotice.js";
import { UserMessage } from "./UserMessage.js";
import { costOfEntries, moneyLabel } from "../state/cost_model.js";

/**
 * What a finished turn's model replies cost, for its strip; null when it made none.
 * @param {readonly import("../../protocol/index.ts").Entry[]} items
 * @param {string} lang
 * @returns {{text: string, title: string, unknown: boolean}|null}
 */
function turnCost(items, lang) {
  const c = costOfEntries(items);
  if (c.replies === 0) return null;
  const money = moneyLabel(c.sums, lang);
  if (!money) return { text: t("cost.unknown"), title: t("cost.unknownHelp"), unknown: true };
  return {
    text: c.unpriced ? t("cost.partial", { money, n: c.unpriced }) : money,
    title: t("cost.turnTitle", { n: c.replies }),
    unknown: false,
  };
}

/**
 * @param {TurnData} a
 * @param {TurnData} b
 */
function sameTurn(a, b) {
  return a.user === b.user && a.items.length === b.items.length &&
    a.items.every((e, i) => e === b.items[i]);
}

/** @extends {Component<Props, {open: boolean|null}>} */
export class Turn extends Component {
  /** @override */
  state = { open: /** @type {boolean|null} */ (null) };

  /**
   * @override
   * @param {Props} n
   * @param {{open: boolean|null}} s
   */
  shouldComponentUpdate(n, s) {
    const p = this.props;
    return s.open !== this.state.open || n.live !== p.live || n.run !== p.run ||
      n.waiting !== p.waiting || n.canAct !== p.canAct || n.lang !== p.lang ||
      !sameTurn(n.turn, p.turn);
  }

  /**
   * A call starting to wait for approval re-opens steps the reader collapsed, so the
   * Approval card is in view.
   * @override
   * @param {Props} prev
   */
  componentDidUpdate(prev) {
    if (this.props.waiting && !prev.waiting && this.state.open === false) {
      this.setState({ open: null });
    }
  }

  /** @param {boolean} open */
  setOpen = (open) => this.setState({ open });

  /**
   * @param {ProcessItem} item
   * @param {boolean} live
   */
  item(item, live) {
    const { lang } = this.props;
    const e = item.entry;
    switch (item.kind) {
      case "assistant":
        return html`
          <${EntryView}
            key=${e.id}
            entry=${e}
            parts=${item.parts}
            results=${item.results}
            live=${live}
            lang=${lang}
          />
        `;
      case "orphan": {
        const data = e.parts[0]?.data ?? {};
        const part = {
          type: "tool_call",
          data: { id: data.toolCallId, name: data.name, args: {} },
        };
        return html`<${ToolCard} key=${e.id} part=${part} result=${e} live=${false} />`;
      }
      case "error":
        return html`<${ErrorLine} key=${e.id} entry=${e} canRetry=${false} />`;
      default:
        return html`
          <div
            key=${e.id}
            class=${`turn-note entry-${e.role}`}
            data-testid="entry"
            data-role=${e.role}
            data-entry-id=${e.id}
          >
            <span class="turn-note-role">${t(/** @type {const} */ (`role.${e.role}`))}</span>
            ${e.parts.map((p) => p.text).filter(Boolean).join("\n")}
          </div>
        `;
    }
  }

  render() {
    const { turn, live, run, waiting, canAct, lang } = this.props;
    const view = analyseTurn(turn, live);
    const open = this.state.open ?? live;
    const expandable = view.process.length > 0;
    const showStrip = live ||
      turn.items.length > view.compactions.length + view.rewinds.length + view.clears.length;
    // The server's net record of the turn; older turns fall back to summing the tool calls.
    const net = netFileChanges(turn.user);
    const changes = live ? null : net ?? fileChanges(view);
    return html`
      <section class="turn" data-testid="turn" data-state=${view.status} data-turn-id=${turn.id}>
        ${turn.user && html`<${UserMessage} entry=${turn.user} />`}
        ${showStrip &&
          html`
            <${StatusStrip}
              status=${view.status}
              run=${run}
              waiting=${waiting}
              startedAt=${view.startedAt}
              endedAt=${view.endedAt}
              cost=${live ? null : turnCost(turn.items, lang)}
              open=${open && expandable}
              expandable=${expandable}
              onToggle=${() => this.setOpen(!open)}
            />
          `}
        ${expandable &&
          html`
            <div
              class="turn-process"
              data-testid="turn-process"
              hidden=${open ? false : "until-found"}
              onbeforematch=${() => this.setOpen(true)}
            >
              <${RewoundContext.Provider} value=${net?.rewound ?? null}>
                ${view.process.map((it) => this.item(it, live))}
              <//>
            </div>
          `}
        ${view.hookNotes.length > 0 && html`<${HookNotes} entries=${view.hookNotes} />`}
        ${view.final && html`<${FinalAnswer} final=${view.final} />`}
        ${changes && changes.files.length > 0 && html`<${FileChanges} changes=${changes} />`}
        ${view.errors.map((e, i) =>
          html`
            <${ErrorLine}
              key=${e.id}
              entry=${e}
              canRetry=${canAct && i === view.errors.length - 1}
            />
          `
        )}
        ${view.maxSteps && !live && html`<${TurnNotice} canContinue=${canAct} />`}
        ${view.stopNotice && !view.maxSteps &&
          html`<${TurnNotice} kind=${view.stopNotice} canContinue=${canAct} />`}
        ${view.compactions.map((e) => html`<${CompactBand} key=${e.id} entry=${e} />`)}
        ${view.rewinds.map((e) => html`<${RewindBand} key=${e.id} entry=${e} turnId=${turn.id} />`)}
        ${view.clears.map((e) => html`<${ClearBand} key=${e.id} entry=${e} />`)}
      </section>
    `;
  }
}
