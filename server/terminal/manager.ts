/**
 * The open terminals of one server: opening (cwd = the task's workspace), tab order,
 * viewers per connection, and killing every shell session when the server stops.
 * One instance per event hub, found with {@link terminalsOf}.
 */
import {
  TERMINAL_LIMITS,
  type TerminalInfo,
  type TerminalList,
  TERMINALS_TOPIC,
} from "../../protocol/index.ts";
import type { EventHub } from "../sessions/hub.ts";
import { OpError } from "../errors.ts";
import { ptyUnavailableReason } from "./pty.ts";
import { detectShell } from "./shell.ts";
import { TerminalSession, type TerminalViewer } from "./session.ts";

export class TerminalManager {
  private sessions = new Map<string, TerminalSession>();
  private stopped = false;

  constructor(private hub: EventHub, private now: () => number = Date.now) {}

  list(): TerminalList {
    const reason = ptyUnavailableReason();
    return { available: reason === null, reason, terminals: this.infos() };
  }

  private infos(): TerminalInfo[] {
    return [...this.sessions.values()].map((s) => ({ ...s.info }));
  }

  private publish(): void {
    this.hub.publish(TERMINALS_TOPIC, { kind: "list", terminals: this.infos() }, "list");
  }

  get(id: string): TerminalSession {
    const s = this.sessions.get(id);
    if (!s) throw new OpError("not_found", `no terminal ${id}`);
    return s;
  }

  open(cwd: string, cols: number, rows: number): TerminalInfo {
    const reason = ptyUnavailableReason();
    if (reason) throw new OpError("invalid_args", `the terminal is unavailable: ${reason}`);
    if (this.stopped) throw new OpError("invalid_args", "the server is stopping");
    if (this.sessions.size >= TERMINAL_LIMITS.open) {
      throw new OpError("too_large", `at most ${TERMINAL_LIMITS.open} terminals can be open`);
    }
    try {
      if (!Deno.statSync(cwd).isDirectory) throw new Error("not a folder");
    } catch (e) {
      throw new OpError(
        "not_found",
        `the workspace ${cwd} cannot be used: ${(e as Error).message}`,
      );
    }
    const id = crypto.randomUUID().replaceAll("-", "").slice(0, 16);
    const env: Record<string, string> = {
      ...Deno.env.toObject(),
      TERM: "xterm-256color",
      COLORTERM: "truecolor",
    };
    delete env.NO_COLOR; // the server's own setting, not the user's shell's
    const session = new TerminalSession({
      id,
      shell: detectShell(),
      cwd,
      cols,
      rows,
      env,
      now: this.now(),
      changed: () => this.publish(),
    });
    this.sessions.set(id, session);
    this.publish();
    return { ...session.info };
  }

  attach(id: string, viewer: TerminalViewer): { terminal: TerminalInfo; screen: string } {
    const s = this.get(id);
    return { terminal: { ...s.info }, screen: s.attach(viewer) };
  }

  /** A connection closed: it views nothing any more. */
  dropViewer(viewerId: string): void {
    for (const s of this.sessions.values()) s.detach(viewerId);
  }

  resize(id: string, cols: number, rows: number): TerminalInfo {
    const s = this.get(id);
    s.resize(cols, rows);
    this.publish();
    return { ...s.info };
  }

  async close(id: string, force: boolean): Promise<void> {
    const s = this.get(id);
    if (!force && s.info.exitCode === null) {
      const running = await s.running();
      if (running.length) {
        throw new OpError("busy", `Still running in this terminal: ${running.join(", ")}`);
      }
    }
    this.sessions.delete(id);
    this.publish();
    await s.close();
  }

  reorder(ids: string[]): TerminalInfo[] {
    const next = new Map<string, TerminalSession>();
    for (const id of ids) {
      const s = this.sessions.get(id);
      if (s) next.set(id, s);
    }
    for (const [id, s] of this.sessions) if (!next.has(id)) next.set(id, s);
    this.sessions = next;
    this.publish();
    return this.infos();
  }

  /** Server shutdown: every shell session is killed. */
  async closeAll(): Promise<void> {
    this.stopped = true;
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.close()));
  }
}

const instances = new WeakMap<EventHub, TerminalManager>();

/** The terminal manager of a set of services (created on first use). */
export function terminalsOf(deps: { hub: EventHub }): TerminalManager {
  let m = instances.get(deps.hub);
  if (!m) {
    m = new TerminalManager(deps.hub);
    instances.set(deps.hub, m);
  }
  return m;
}

/** The manager if one was created (shutdown must not create one). */
export function existingTerminals(deps: { hub: EventHub }): TerminalManager | undefined {
  return instances.get(deps.hub);
}
