/**
 * The terminal dock: the server's list of terminals (the same on every
 * client, in the server's tab order), which one this client shows, whether the dock is
 * open, and the one live view that receives a terminal's output. A view attaches to get
 * the kept screen and then every output frame; after a reconnection it attaches again.
 * What xterm has parsed is acknowledged (`terminal.ack`): the server sends only so far
 * ahead, so a flood cannot outrun the page.
 *
 * @typedef {import("../../protocol/index.ts").TerminalInfo} TerminalInfo
 * @typedef {{reset: () => void, write: (data: string, parsed: () => void) => void}} TerminalSink
 */
import { signal } from "@preact/signals";
import { TERMINAL_LIMITS, TERMINALS_TOPIC } from "../../protocol/index.ts";
import { errorCode, onSync, onTermOutput, onTopic, request } from "./connection.js";
import { currentId } from "./tasks.js";
import { moveBefore, withCtrl } from "./terminal_model.js";

const INPUT_PIECE = TERMINAL_LIMITS.inputChars / 2;

export const termDockOpen = signal(false);
/** @type {import("@preact/signals").Signal<TerminalInfo[]>} */
export const terminals = signal([]);
/** Null until listed; `reason` says why terminals cannot run on this server. */
export const termSupport = signal(
  /** @type {{available: boolean, reason: string|null}|null} */ (null),
);
export const activeTerminal = signal(/** @type {string|null} */ (null));
/** A close that found programs running: the tab asks before killing them. */
export const closeAsk = signal(/** @type {{id: string, message: string}|null} */ (null));
/** The last failure of an action, shown in the dock. */
export const termError = signal("");
/** The phone's sticky Ctrl key of the extra-keys row: the next typed key is sent as Ctrl+key. */
export const ctrlArmed = signal(false);

let listed = false;

function pickActive() {
  const ids = terminals.value.map((x) => x.id);
  if (!activeTerminal.value || !ids.includes(activeTerminal.value)) {
    activeTerminal.value = ids[0] ?? null;
  }
}

/** @param {unknown} e */
const message = (e) => (e instanceof Error ? e.message : String(e));

export async function refreshTerminals() {
  const r = await request("terminal.list");
  listed = true;
  termSupport.value = { available: r.available, reason: r.reason };
  terminals.value = r.terminals;
  pickActive();
}

onTopic(TERMINALS_TOPIC, (data) => {
  if (data?.kind !== "list") return;
  terminals.value = data.terminals;
  pickActive();
});

/** Opens the dock; with no terminal yet, one is started in the shown task's workspace. */
export async function openTerminalDock() {
  termDockOpen.value = true;
  termError.value = "";
  try {
    await refreshTerminals();
    if (terminals.value.length === 0 && termSupport.value?.available) await newTerminal();
  } catch (e) {
    termError.value = message(e);
  }
}

export function closeTerminalDock() {
  termDockOpen.value = false;
  ctrlArmed.value = false;
}

export async function newTerminal(cols = 80, rows = 24) {
  termError.value = "";
  try {
    const { terminal } = await request("terminal.open", { taskId: currentId.value, cols, rows });
    if (!terminals.value.some((x) => x.id === terminal.id)) {
      terminals.value = [...terminals.value, terminal];
    }
    activeTerminal.value = terminal.id;
  } catch (e) {
    termError.value = message(e);
  }
}

/** Closes a terminal; while something runs in it, `closeAsk` asks first (force = yes). */
export async function closeTerminal(/** @type {string} */ id, force = false) {
  closeAsk.value = null;
  try {
    await request("terminal.close", { id, force });
    terminals.value = terminals.value.filter((x) => x.id !== id);
    pickActive();
  } catch (e) {
    if (errorCode(e) === "busy") closeAsk.value = { id, message: message(e) };
    else termError.value = message(e);
  }
}

/** Moves tab `id` to the place of tab `before` (drag and drop); every client follows. */
export function moveTerminal(/** @type {string} */ id, /** @type {string} */ before) {
  const ids = moveBefore(terminals.value.map((x) => x.id), id, before);
  terminals.value = ids.map((x) => terminals.value.find((t) => t.id === x)).filter((x) =>
    x !== undefined
  );
  request("terminal.reorder", { ids }).catch((e) => termError.value = message(e));
}

export function sendInput(/** @type {string} */ id, /** @type {string} */ data) {
  if (ctrlArmed.value) {
    ctrlArmed.value = false;
    data = withCtrl(data);
  }
  // A paste may be larger than one input op takes: send it in order, in pieces.
  for (let i = 0; i < data.length; i += INPUT_PIECE) {
    request("terminal.input", { id, data: data.slice(i, i + INPUT_PIECE) })
      .catch((e) => termError.value = message(e));
  }
}

/** Sent at most once per frame: a drag of the dock's edge resizes many times. */
let resizeTimer = /** @type {ReturnType<typeof setTimeout>|undefined} */ (undefined);
export function resizeTerminal(
  /** @type {string} */ id,
  /** @type {number} */ cols,
  /** @type {number} */ rows,
) {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    request("terminal.resize", { id, cols, rows }).catch(() => {});
  }, 50);
}

/** The mounted view: its terminal and where its output goes. */
let view = /** @type {{id: string, sink: TerminalSink}|null} */ (null);

/** Parsed characters not yet acknowledged, sent in batches. */
let unacked = 0;
let ackTimer = /** @type {ReturnType<typeof setTimeout>|undefined} */ (undefined);
const ACK_BATCH = 16 * 1024;

function sendAck() {
  clearTimeout(ackTimer);
  ackTimer = undefined;
  const chars = unacked;
  unacked = 0;
  if (chars > 0 && view) request("terminal.ack", { id: view.id, chars }).catch(() => {});
}

/** Writes output into the view and acknowledges it once xterm has parsed it. */
function write(/** @type {{id: string, sink: TerminalSink}} */ v, /** @type {string} */ data) {
  v.sink.write(data, () => {
    if (view !== v) return;
    unacked += data.length;
    if (unacked >= ACK_BATCH) sendAck();
    else ackTimer ??= setTimeout(sendAck, 50);
  });
}

onTermOutput((id, data, reset) => {
  if (view?.id !== id) return;
  if (reset) view.sink.reset(); // it fell behind: the whole screen again
  write(view, data);
});

async function attach(/** @type {{id: string, sink: TerminalSink}} */ v) {
  try {
    const r = await request("terminal.attach", { id: v.id });
    if (view !== v) return;
    clearTimeout(ackTimer);
    ackTimer = undefined;
    unacked = 0; // the server counts this attachment from its screen on
    v.sink.reset();
    write(v, r.screen);
  } catch (e) {
    if (view === v) termError.value = message(e);
  }
}

/**
 * Shows terminal `id` in `sink` (the kept screen, then live output); returns the
 * function that stops it.
 * @param {string} id @param {TerminalSink} sink
 */
export function attachView(id, sink) {
  const v = { id, sink };
  view = v;
  attach(v);
  return () => {
    if (view !== v) return;
    view = null;
    request("terminal.detach", { id }).catch(() => {});
  };
}

// A new connection views nothing: the list and the shown terminal are fetched again.
onSync(() => {
  if (!listed) return;
  refreshTerminals().catch(() => {});
  if (view) attach(view);
});
