/**
 * Splits inline `<think>…</think>` (as some OpenAI-compatible servers send reasoning
 * inside the text) into thinking and text deltas, across arbitrary chunk boundaries.
 */

const OPEN = "<think>";
const CLOSE = "</think>";

export class ThinkTagSplitter {
  private inThink = false;
  private pending = "";
  private sawText = false;

  /** Feeds a text delta; returns the pieces to emit, in order. */
  push(delta: string): { type: "text" | "thinking"; delta: string }[] {
    const out: { type: "text" | "thinking"; delta: string }[] = [];
    let s = this.pending + delta;
    this.pending = "";
    while (s.length) {
      const tag = this.inThink ? CLOSE : OPEN;
      const i = s.indexOf(tag);
      if (i >= 0) {
        this.emit(out, s.slice(0, i));
        s = s.slice(i + tag.length);
        this.inThink = !this.inThink;
        continue;
      }
      // Keep a possible partial tag at the end for the next chunk.
      let keep = 0;
      for (let k = Math.min(tag.length - 1, s.length); k > 0; k--) {
        if (tag.startsWith(s.slice(-k))) {
          keep = k;
          break;
        }
      }
      this.emit(out, s.slice(0, s.length - keep));
      this.pending = s.slice(s.length - keep);
      break;
    }
    return out;
  }

  /** Flushes whatever is held back at the end of the stream. */
  end(): { type: "text" | "thinking"; delta: string }[] {
    const out: { type: "text" | "thinking"; delta: string }[] = [];
    this.emit(out, this.pending);
    this.pending = "";
    return out;
  }

  private emit(out: { type: "text" | "thinking"; delta: string }[], s: string): void {
    if (!s) return;
    const type = this.inThink ? "thinking" : "text";
    // Whitespace between </think> and the answer is not part of the answer.
    const text = type === "text" && !this.sawText ? s.replace(/^\s+/, "") : s;
    if (!text) return;
    if (type === "text") this.sawText = true;
    const last = out[out.length - 1];
    if (last?.type === type) last.delta += text;
    else out.push({ type, delta: text });
  }
}
