/**
 * The one WebSocket to the server: request/response by id, pushed events, and
 * reconnection with exponential backoff plus `events.resume`.
 *
 * Components never touch the socket; they read the signals below and call actions in
 * the other state modules, which use {@link request} and {@link onTopic}.
 *
 * @typedef {import("../../protocol/index.ts").EvtMsg} EvtMsg
 * @typedef {import("../../protocol/topics.ts").Topic} Topic
 * @typedef {import("../../protocol/topics.ts").TopicMap} TopicMap
 * @typedef {import("../../protocol/index.ts").HelloMsg} HelloMsg
 * @typedef {import("../../protocol/index.ts").ServerMsg} ServerMsg
 * @typedef {import("../../protocol/index.ts").StoreHealth} StoreHealth
 * @typedef {import("../../protocol/index.ts").OpName} OpName
 * @typedef {import("../../protocol/index.ts").OpResults} OpResults
 * @typedef {import("../../protocol/index.ts").OpArgs} OpArgs
 * @typedef {import("../../protocol/index.ts").ErrorCode | "disconnected" | "timeout"} RpcCode
 *   a server's error code, or one raised here (not connected, no answer in time)
 */
import { signal } from "@preact/signals";
import { PROTOCOL_VERSION, TOKEN_RESET_CLOSE } from "../../protocol/index.ts";

/** "connecting" (first attempt) | "open" | "reconnecting" (lost, retrying). */
export const connState = signal(/** @type {"connecting"|"open"|"reconnecting"} */ ("connecting"));
/** Number of the reconnection attempt in progress (0 while connected). */
export const attempt = signal(0);
/** Store health from the last `hello`; null before the first one. */
export const storeHealth = signal(/** @type {StoreHealth|null} */ (null));
/** Server version from the last `hello`. */
export const serverVersion = signal("");
/**
 * Set when the server dropped this client because the access token was reset: it
 * must pair again (a reconnection with the old cookie would only count as a bad token).
 */
export const accessRevoked = signal(false);
/** Set when the server speaks another protocol version than this UI. */
export const protocolMismatch = signal(/** @type {number|null} */ (null));

/** An error answered by the server (or raised locally: `disconnected`, `timeout`). */
export class RpcError extends Error {
  /**
   * @param {RpcCode} code
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * The code of a failed request, or "" when `e` is some other error.
 * @param {unknown} e
 * @returns {RpcCode | ""}
 */
export function errorCode(e) {
  return e instanceof RpcError ? e.code : "";
}

const REQUEST_TIMEOUT_MS = 30_000;

/** @type {WebSocket|null} */
let ws = null;
let nextId = 1;
/** @type {Map<number, {resolve:(v:any)=>void, reject:(e:Error)=>void, timer:ReturnType<typeof setTimeout>}>} */
const pending = new Map();
/** @type {string|null} */
let epoch = null;
let lastSeq = 0;
let everConnected = false;
/** @type {ReturnType<typeof setTimeout>|undefined} */
let retryTimer;
/** @type {Set<(msg: EvtMsg) => void>} */
const listeners = new Set();
/** @type {(replayed: boolean) => void} */
let onSynced = () => {};
/** @type {() => string[]} */
let topicsProvider = () => ["tasks"];
/** @type {Map<(replayed: boolean) => void, () => string[]>} listener → its topics */
const syncListeners = new Map();

/**
 * Delay before reconnection attempt `n` (1-based): 250 ms doubling up to 5 s, ±10 %.
 * @param {number} n
 * @param {() => number} [random]
 */
export function backoffDelay(n, random = Math.random) {
  const base = Math.min(5000, 250 * 2 ** Math.max(0, n - 1));
  return Math.round(base * (0.9 + 0.2 * random()));
}

/** Largest event `seq` seen (or snapshot `seq` applied), for `events.resume`. */
export function noteSeq(/** @type {number} */ seq) {
  if (typeof seq === "number" && seq > lastSeq) lastSeq = seq;
}

/** @type {Set<(id: string, data: string, reset: boolean) => void>} */
const termListeners = new Set();

/**
 * Registers a listener for terminal output frames (`{t:"term"}`, outside the event
 * ring); returns an unsubscribe function.
 * @param {(id: string, data: string, reset: boolean) => void} fn
 */
export function onTermOutput(fn) {
  termListeners.add(fn);
  return () => termListeners.delete(fn);
}

/**
 * Registers `fn` for the pushed events of one topic, `data` typed by the topic (the map
 * in protocol/topics.ts); returns an unsubscribe function. `topic` may be a function
 * naming the topic at each event (e.g. the shown task's, null while there is none).
 * @template {Topic} T
 * @param {T | (() => T | null)} topic
 * @param {(data: TopicMap[T], seq: number) => void} fn
 */
export function onTopic(topic, fn) {
  /** @param {EvtMsg} msg */
  const listener = (msg) => {
    const want = typeof topic === "function" ? topic() : topic;
    // What the server publishes on a topic is that topic's payload in the map.
    if (want !== null && msg.topic === want) fn(/** @type {TopicMap[T]} */ (msg.data), msg.seq);
  };
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Wires the data layer: `synced(replayed)` runs after each (re)connection once the
 * client is up to date or must re-fetch snapshots (`replayed === false`); `topics()`
 * names the topics to resume after a reconnection.
 * @param {{synced: (replayed: boolean) => void, topics: () => string[]}} hooks
 */
export function configure(hooks) {
  onSynced = hooks.synced;
  topicsProvider = hooks.topics;
}

/**
 * Also runs `fn(replayed)` after each (re)connection, after the `configure` hook (for
 * state modules besides tasks, e.g. approvals); `topics()` names further topics whose
 * missed events `events.resume` should replay. Returns an unsubscribe function.
 * @param {(replayed: boolean) => void} fn
 * @param {() => string[]} [topics]
 */
export function onSync(fn, topics = () => []) {
  syncListeners.set(fn, topics);
  return () => syncListeners.delete(fn);
}

/** @param {boolean} replayed */
function synced(replayed) {
  onSynced(replayed);
  for (const fn of syncListeners.keys()) {
    try {
      fn(replayed);
    } catch (e) {
      console.error("reinagent: sync listener failed", e);
    }
  }
}

/**
 * Sends an op and resolves with its result; rejects with {@link RpcError}.
 * @template {OpName} K
 * @param {K} op
 * @param {OpArgs[K]} [args] the op's arguments (their type comes from `OP_ARGS[op]`; the
 *   server validates them again)
 * @param {{timeoutMs?: number}} [opts] a longer wait for an op with its own deadline
 * @returns {Promise<OpResults[K]>}
 */
export function request(op, args = /** @type {OpArgs[K]} */ ({}), opts = {}) {
  if (!ws || ws.readyState !== WebSocket.OPEN || connState.value !== "open") {
    return Promise.reject(new RpcError("disconnected", "Not connected to the server"));
  }
  // The server answers each op with its result shape (protocol/index.ts `OpResults`).
  return /** @type {Promise<OpResults[K]>} */ (sendRaw(op, args, opts.timeoutMs));
}

/**
 * @param {string} op
 * @param {Record<string, unknown>} args
 * @param {number} [timeoutMs]
 * @returns {Promise<unknown>}
 */
function sendRaw(op, args, timeoutMs = REQUEST_TIMEOUT_MS) {
  const id = nextId++;
  const socket = /** @type {WebSocket} */ (ws);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new RpcError("timeout", `No answer to ${op} within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    pending.set(id, { resolve, reject, timer });
    socket.send(JSON.stringify({ t: "req", id, op, args }));
  });
}

function wsUrl() {
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
}

/** Opens the socket (idempotent); call once at start-up. */
export function connect() {
  clearTimeout(retryTimer);
  retryTimer = undefined;
  if (ws && ws.readyState <= WebSocket.OPEN) return;
  const socket = new WebSocket(wsUrl());
  ws = socket;
  socket.onmessage = (ev) => {
    if (ws !== socket) return;
    /** @type {ServerMsg} */
    let msg;
    try {
      msg = JSON.parse(String(ev.data));
    } catch {
      console.error("reinagent: ignored a frame that is not JSON");
      return;
    }
    handle(msg);
  };
  socket.onclose = (ev) => {
    if (ws !== socket) return;
    ws = null;
    failPending();
    if (ev.code === TOKEN_RESET_CLOSE) accessRevoked.value = true;
    else scheduleRetry();
  };
}

/** @param {ServerMsg} msg */
function handle(msg) {
  if (msg.t === "res") {
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    clearTimeout(p.timer);
    if (msg.ok) p.resolve(msg.result);
    else p.reject(new RpcError(msg.error?.code ?? "internal", msg.error?.message ?? "error"));
  } else if (msg.t === "evt") {
    noteSeq(msg.seq);
    for (const fn of listeners) {
      try {
        fn(msg);
      } catch (e) {
        console.error("reinagent: event handler failed", e);
      }
    }
  } else if (msg.t === "hello") {
    onHello(msg);
  } else if (msg.t === "term") {
    for (const fn of termListeners) {
      try {
        fn(msg.id, msg.data, msg.reset === true);
      } catch (e) {
        console.error("reinagent: terminal output handler failed", e);
      }
    }
  }
}

/** @param {HelloMsg} hello */
async function onHello(hello) {
  storeHealth.value = hello.store ?? null;
  serverVersion.value = hello.version ?? "";
  protocolMismatch.value = hello.protocol === PROTOCOL_VERSION ? null : hello.protocol;
  const prevEpoch = epoch;
  const wasConnected = everConnected;
  epoch = hello.epoch;
  everConnected = true;
  attempt.value = 0;
  connState.value = "open";
  if (!wasConnected || !prevEpoch) {
    lastSeq = hello.seq;
    synced(false);
    return;
  }
  let replayed = false;
  try {
    const r = await request("events.resume", {
      epoch: prevEpoch,
      afterSeq: lastSeq,
      topics: [
        ...new Set([...topicsProvider(), ...[...syncListeners.values()].flatMap((f) => f())]),
      ],
    });
    replayed = r.replayed === true;
    noteSeq(r.seq);
  } catch (e) {
    console.error("reinagent: events.resume failed", e);
  }
  if (!replayed) lastSeq = Math.max(lastSeq, hello.seq);
  synced(replayed);
}

function failPending() {
  for (const [id, p] of pending) {
    clearTimeout(p.timer);
    p.reject(new RpcError("disconnected", "The connection to the server was lost"));
    pending.delete(id);
  }
}

function scheduleRetry() {
  connState.value = "reconnecting";
  attempt.value += 1;
  retryTimer = setTimeout(connect, backoffDelay(attempt.value));
}

/** Retries at once (e.g. when the phone comes back online) instead of waiting. */
export function retryNow() {
  if (retryTimer !== undefined) connect();
}

if (typeof addEventListener === "function") {
  addEventListener("online", retryNow);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") retryNow();
  });
}
