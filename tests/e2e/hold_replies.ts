/**
 * An init script for a page: its socket holds back the replies to one operation by `ms`
 * (only the requests whose JSON arguments include `argsInclude`), so a race between that
 * reply and what the page does meanwhile is certain, not a matter of timing.
 * `globalThis.__held` records what the page saw, in order: `<topic> event` for each event
 * of `eventTopic`, and `reply` for each held reply as it is delivered (`reply (shown)` when
 * `shownSelector` is on the page at that moment).
 *
 * Use: `page.addInitScript(holdReplies, { op: "task.send", argsInclude: "queued", ms: 400 })`.
 */
export interface Hold {
  op: string;
  argsInclude: string;
  ms: number;
  eventTopic?: string;
  shownSelector?: string;
}

export function holdReplies(hold: Hold) {
  const seen: string[] = [];
  (globalThis as unknown as { __held: string[] }).__held = seen;
  const Native = WebSocket;
  class HoldingSocket extends Native {
    held = new Set<number>();
    override send(data: string) {
      try {
        const m = JSON.parse(data);
        if (m.op === hold.op && JSON.stringify(m.args ?? null).includes(hold.argsInclude)) {
          this.held.add(m.id);
        }
      } catch { /* not a request */ }
      super.send(data);
    }
    override set onmessage(fn: ((ev: MessageEvent) => void) | null) {
      super.onmessage = !fn ? null : (ev: MessageEvent) => {
        let m: { t?: string; id?: number; topic?: string } | null = null;
        try {
          m = JSON.parse(String(ev.data));
        } catch { /* passed on as it is */ }
        if (hold.eventTopic && m?.t === "evt" && m.topic === hold.eventTopic) {
          seen.push(`${m.topic} event`);
        }
        if (m?.t === "res" && this.held.has(m.id!)) {
          setTimeout(() => {
            const shown = hold.shownSelector && document.querySelector(hold.shownSelector);
            seen.push(shown ? "reply (shown)" : "reply");
            fn.call(this, ev);
          }, hold.ms);
        } else fn.call(this, ev);
      };
    }
    override get onmessage() {
      return super.onmessage;
    }
  }
  globalThis.WebSocket = HoldingSocket;
}
