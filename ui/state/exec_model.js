/**
 * What the command card shows beyond the output text: whether the command failed,
 * the line that says how it ended (timeout, stop, signal, SIGKILL), and its output by
 * stream (stderr is marked), live or from the result's `meta.segments`. Pure.
 *
 * @typedef {import("../../protocol/tool_details.ts").ExecSegment} Segment
 * @typedef {import("../../protocol/tool_details.ts").ToolDetails<"exec_command">} ExecDetails
 */

/**
 * Appends a live piece to a call's segments (joining one stream's pieces), keeping at
 * most `cap` characters from the end.
 * @param {Segment[]} list
 * @param {string|undefined} stream "err", else stdout (absent from older servers)
 * @param {string} text
 * @param {number} cap
 * @returns {Segment[]}
 */
export function appendLive(list, stream, text, cap) {
  const s = stream === "err" ? "err" : "out";
  const out = list.slice();
  const last = out[out.length - 1];
  if (last && "text" in last && last.stream === s) {
    out[out.length - 1] = { stream: s, text: last.text + text };
  } else out.push({ stream: s, text });
  let size = out.reduce((n, x) => n + ("text" in x ? x.text.length : 0), 0);
  while (size > cap && out.length) {
    const first = out[0];
    const len = "text" in first ? first.text.length : 0;
    if (size - len >= cap || !("text" in first)) {
      out.shift();
      size -= len;
    } else {
      out[0] = { stream: first.stream, text: first.text.slice(size - cap) };
      size = cap;
    }
  }
  return out;
}

/**
 * The result's output by stream, when stderr had something (else null: the output
 * text is all stdout).
 * @param {ExecDetails} meta
 * @returns {Segment[]|null}
 */
export function resultSegments(meta) {
  const list = Array.isArray(meta.segments) ? meta.segments : null;
  if (!list) return null;
  // Stored results may come from older versions: each piece is checked.
  return list.filter((/** @type {Record<string, unknown>|null} */ s) =>
    s && (typeof s.text === "string" && (s.stream === "out" || s.stream === "err") ||
      typeof s.omitted === "number")
  );
}

/**
 * A finished command that did not succeed: non-zero exit, a signal, timeout, stop.
 * @param {ExecDetails} meta
 */
export function execFailed(meta) {
  return meta.timedOut === true || meta.stopped === true ||
    (typeof meta.signal === "string" && meta.signal !== "") ||
    (typeof meta.exitCode === "number" && meta.exitCode !== 0);
}

/**
 * How the command was ended, for a line under its output (null for a normal exit).
 * @param {ExecDetails} meta
 * A signal is a crash (bad); a timeout or a stop was decided from outside (warn).
 * @returns {{key: string, params?: Record<string, unknown>, sigkill: boolean, tone: "bad"|"warn"}|null}
 */
export function execEnding(meta) {
  const sigkill = meta.killedWith === "SIGKILL";
  if (meta.timedOut) {
    return typeof meta.timeoutS === "number"
      ? { key: "tool.end.timedOut", params: { s: meta.timeoutS }, sigkill, tone: "warn" }
      : { key: "tool.end.timedOutPlain", sigkill, tone: "warn" };
  }
  if (meta.stopped) return { key: "tool.end.stopped", sigkill, tone: "warn" };
  if (typeof meta.signal === "string" && meta.signal) {
    return { key: "tool.end.signal", params: { signal: meta.signal }, sigkill, tone: "bad" };
  }
  return null;
}
