/**
 * An init script for a page: its socket holds back the replies to one operation by
 * `ms` (only the requests whose JSON arguments include `argsInclude`), so a race
 * between that reply and what the user does next is certain, not a matter of timing.
 * Use: `page.addInitScript(holdReplies, { op: "task.send", argsInclude: "queued", ms: 400 })`.
 */
export function holdReplies(hold: { op: string; argsInclude: string; ms: number }) {
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
        let m: { t?: string; id?: number } | null = null;
        try {
          m = JSON.parse(String(ev.data));
        } catch { /* passed on as it is */ }
        if (m?.t === "res" && this.held.has(m.id!)) setTimeout(() => fn.call(this, ev), hold.ms);
        else fn.call(this, ev);
      };
    }
    override get onmessage() {
      return super.onmessage;
    }
  }
  globalThis.WebSocket = HoldingSocket;
}
