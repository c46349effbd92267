/**
 * Protocol ops for the terminal: the user's own shells on a real PTY of the
 * server — not sandboxed, reached over the same authenticated WebSocket as everything
 * else. Merged into `OP_ARGS` by `protocol/index.ts`.
 *
 * - `terminal.list {}`: whether terminals work here (and why not), the open ones in tab
 *   order; the caller then receives `terminals` events (the whole list on each change).
 * - `terminal.open {taskId?, cols, rows}`: a new shell whose cwd is the task's workspace.
 * - `terminal.attach {id}`: the kept scrollback (`screen`, to write into a reset view) and,
 *   from then on, output frames `{t:"term", id, data}` on this connection.
 * - `terminal.ack {id, chars}`: the viewer has parsed `chars` more characters of output
 *   (the screen counts too); the server sends at most `TERMINAL_LIMITS.ackWindow`
 *   characters ahead of a viewer's acknowledgements (back-pressure down to the program).
 * - `terminal.input {id, data}` / `terminal.resize {id, cols, rows}` / `terminal.detach`.
 * - `terminal.close {id, force?}`: kills the shell's whole session; without `force` it
 *   fails with `busy` (naming the programs) while something besides the shell runs.
 * - `terminal.reorder {ids}`: the tab order every client shows.
 */
import { arr, bool, int, nullable, obj, type Schema, str } from "./schema.ts";

export const TERMINAL_LIMITS = {
  /** Output kept per terminal for a reconnecting or second client, in characters. */
  scrollbackChars: 256 * 1024,
  /** Largest input of one `terminal.input`, in characters. */
  inputChars: 64 * 1024,
  /** Output sent in one frame at most; the PTY is not read further until it is sent. */
  frameChars: 16 * 1024,
  /** Characters sent to a viewer and not yet acknowledged before the PTY is read again. */
  ackWindow: 64 * 1024,
  /** Terminals open at once. */
  open: 16,
} as const;

/** Hub topic of the terminal list. */
export const TERMINALS_TOPIC = "terminals";

const terminalId = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
const cols = int({ min: 2, max: 1000 });
const rows = int({ min: 1, max: 500 });

export const TERMINAL_OP_ARGS = {
  "terminal.list": obj({}),
  "terminal.open": obj({
    "taskId?": nullable(str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ })),
    cols,
    rows,
  }),
  "terminal.attach": obj({ id: terminalId }),
  "terminal.detach": obj({ id: terminalId }),
  "terminal.ack": obj({ id: terminalId, chars: int({ min: 0, max: 64 * 1024 * 1024 }) }),
  "terminal.input": obj({ id: terminalId, data: str({ min: 1, max: TERMINAL_LIMITS.inputChars }) }),
  "terminal.resize": obj({ id: terminalId, cols, rows }),
  "terminal.close": obj({ id: terminalId, "force?": bool }),
  "terminal.reorder": obj({ ids: arr(terminalId, TERMINAL_LIMITS.open) }),
} satisfies Record<string, Schema>;

export interface TerminalInfo {
  id: string;
  /** Shown on the tab: the shell's name and the folder. */
  title: string;
  shell: string;
  cwd: string;
  /** The slave device, e.g. /dev/pts/3. */
  tty: string;
  pid: number;
  cols: number;
  rows: number;
  createdAt: number;
  /** Exit code once the shell ended (the tab stays until closed); null while it runs. */
  exitCode: number | null;
}

export interface TerminalList {
  available: boolean;
  /** Why terminals cannot be opened on this server (OS, missing --allow-ffi). */
  reason: string | null;
  terminals: TerminalInfo[];
}

/** Topic `terminals`: the list changed. */
export type TerminalsEvent = { kind: "list"; terminals: TerminalInfo[] };

/** Server → client output of an attached terminal (not part of the event ring). */
export interface TermMsg {
  t: "term";
  id: string;
  data: string;
  /** The whole kept screen after the viewer fell behind: reset the view, then write it. */
  reset?: true;
}

export interface TerminalOpResults {
  "terminal.list": TerminalList;
  "terminal.open": { terminal: TerminalInfo };
  "terminal.attach": { terminal: TerminalInfo; screen: string };
  "terminal.detach": { id: string };
  "terminal.ack": { id: string };
  "terminal.input": { id: string };
  "terminal.resize": { terminal: TerminalInfo };
  "terminal.close": { id: string };
  "terminal.reorder": { terminals: TerminalInfo[] };
}
