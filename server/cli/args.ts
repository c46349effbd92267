/** Command-line parsing: strict, so a typo is an error rather than ignored. */
import { parsePluginsArgs, type PluginsArgs } from "./plugins_args.ts";
import { parseUpdateArgs, type UpdateArgs } from "./update_args.ts";
import { type CatalogCommand, parseModelsArgs, parseProvidersArgs } from "./providers_args.ts";
import { parseRunArgs, type RunArgs } from "./run_args.ts";
import { parseTasksArgs, type TasksArgs } from "./tasks_args.ts";
import { type MemoryCommand, parseMemoryArgs } from "./memory_args.ts";
import { type HooksArgs, parseHooksArgs } from "./hooks_args.ts";
import { parseFlags } from "./flags.ts";
import { type McpServeArgs, parseMcpServeArgs } from "./mcp_serve_args.ts";
import { type McpCommand, parseMcpArgs } from "./mcp_args.ts";
import { parseSkillsArgs, type SkillsCommand } from "./skills_args.ts";
import {
  type CarryCommand,
  parseBackupArgs,
  parseExportArgs,
  parseImportArgs,
  parseRestoreArgs,
} from "./carry_args.ts";
import { type AutomationsCommand, parseAutomationsArgs } from "./automations_args.ts";

export const USAGE = `Usage:
  reinagent [--port N] [--home DIR] [--no-open] [--keep-running]
      Start the server on 127.0.0.1 and open the desktop window. Closing the window
      stops the server once no task is running (--keep-running: it stays). With a
      server already running on the data dir, it opens a window there and exits.
  reinagent serve [--host ADDR] [--port N] [--home DIR] [--tls-cert FILE --tls-key FILE]
      Headless server (for a VPS or phones); prints the URL and a QR code. With a
      server already running on the data dir, prints its URL and exits.
  reinagent run "<prompt>"|- [--project DIR] [--model PROVIDER/MODEL] [--effort LEVEL]
      [--approval plan|ask|edit|full] [--task ID | --continue | --worktree] [--max-turns N]
      [--allowed-tools LIST] [--disallowed-tools LIST] [--append-system-prompt TEXT]
      [--output-format text|json|stream-json] [--json] [--home DIR]
      One agent turn to completion, headless: the answer on stdout (stream-json, or
      --json: one JSON event per line; json: one result object at the end). "-" reads
      the prompt from stdin; --continue goes on with the project's latest task;
      --worktree makes a new task in a git worktree of its own, on a new branch
      reinagent/<short-title> (the project, default this folder, must be a repository);
      --max-turns caps the turn's steps; --allowed-tools / --disallowed-tools take
      tool names or rules (read_file,exec_command(npm test *)) as the task's allow /
      deny rules. Uses the running instance for this home when there is one.
      Exit code: 0 done, 1 failed, 2 bad input, 3 max steps reached, 4 the model
      refused, 5 a content filter blocked the answer, 6 the output limit cut it,
      130 stopped.
  reinagent tasks [--json] [--home DIR]
      Every task with its state (Running, Waiting for you, Message queued, Failed,
      Stopped, Step limit reached, Interrupted, Done), as the sidebar shows it.
  reinagent automations list [--json]
  reinagent automations add "<prompt>" --schedule "daily 09:00" [--name NAME]
      [--project DIR] [--model PROVIDER/MODEL] [--approval plan|ask|edit|full] [--worktree]
      [--disabled]
  reinagent automations remove ID
  reinagent automations run-now ID
      Scheduled prompts: each run is a new task (approval mode default edit). Schedules:
      hourly [:MM], daily HH:MM, weekdays HH:MM, weekly mon,fri HH:MM, monthly 1,15 HH:MM,
      every N m|h|d|w|mo [DAYS] [HH:MM]. They run while a server runs; missed runs are
      not replayed.
  reinagent memory list [--project DIR] [--json]
  reinagent memory add "<title>" --body TEXT [--type user|feedback|project|reference]
      [--description TEXT] [--project DIR]
  reinagent memory remove ID [--project DIR]
      The memories the agent is reminded of: global, or a project's with --project.
  reinagent hooks list|trust [--project DIR] [--json] [--home DIR]
      The hooks of a workspace (default: this folder) and their trust state; trust
      lets the workspace's hooks run as they are now (a change asks again).
  reinagent plugins list|enable|disable|trust [NAME|DIR] [--project DIR] [--json]
      Plugins (folders with a plugin.json in <data dir>/plugins and the project's
      .reinagent/plugins): off until enabled; trust lets a plugin's hooks run as they are.
  reinagent update [--check] [--manifest URL] [--target PATH] [--force]
      Self-update from a release manifest ({version, platforms: {"linux-x86_64": {url,
      sha256, size}}}; default $REINAGENT_UPDATE_MANIFEST): the download is checked against
      size and sha256 and renamed over the binary, the old one kept as .bak.
  reinagent providers list [--json]
  reinagent providers add ID --format FORMAT --base-url URL [--name NAME]
      [--api-key-env VAR | --api-key-stdin] [--model MODEL_ID ...]
  reinagent providers remove ID
  reinagent providers set-default ID MODEL_ID
  reinagent models fetch ID
  reinagent models enable|disable ID MODEL_ID
      Manage model providers in the data directory (works while a server runs).
  reinagent mcp serve [--home DIR]
      ReinAgent as an MCP server over stdio (for Claude Code, Codex, …): uses the
      running instance for this home, or starts the server in this process. The
      same tools are served over streamable HTTP at /mcp (token as Bearer).
  reinagent mcp add ID [--env K=V]... [--cwd DIR] [--timeout MS] [--policy allow|ask|deny]
      [--disabled] -- COMMAND ARGS...
  reinagent mcp add ID --url URL [--header "K: V"]... [--sse]
  reinagent mcp list [--json]
  reinagent mcp remove ID
  reinagent mcp test ID
      Manage the MCP servers the agent uses as tools (~/.reinagent/mcp_servers.json;
      all take --home DIR; works while a server runs). --sse: a legacy SSE server.
  reinagent acp [--home DIR]
      Speak the Agent Client Protocol on stdio, for editors that run an agent (Zed …):
      each editor session is a task shown live in the app.
  reinagent mcp login ID | logout ID
      Sign in to an MCP server that uses OAuth (prints the address to open; the answer
      comes back to the running instance) or sign out (revoked at its server).
  reinagent skills list [--json] [--project DIR]
  reinagent skills enable|disable NAME [--project DIR]
      The skills found (~/.reinagent/skills, the project's .reinagent/skills,
      ~/.claude/skills, ~/.codex/skills, ~/.agents/skills) and their switches; NAME is
      a skill's name or key (claude:pdf). All take --home DIR; works while a server runs.
  reinagent export TASK_ID... | --all [--format md|json] [--out FILE] [--home DIR]
      A task (or all) as Markdown (to read) or JSON (to import on another machine).
  reinagent import FILE [--home DIR]
  reinagent import --from claude-code|codex|opencode|pi [PATH] [--home DIR]
      Import a JSON export, or the sessions of another tool (its default folder or
      PATH; its files are only read). Importing the same again changes nothing.
  reinagent backup [--include-keys] [--out FILE | --webdav URL [--webdav-user U]]
  reinagent restore FILE | --webdav URL [--webdav-user U]
      The configuration (settings, providers, MCP servers, projects) as one JSON;
      keys only with --include-keys. WebDAV password: $REINAGENT_WEBDAV_PASSWORD.
  reinagent doctor [--home DIR]
      Check the data dir, database, providers, sandboxes and window backend.
  reinagent --version
  reinagent --help

Options:
  --host ADDR      address to bind (default 127.0.0.1; 0.0.0.0 for phones on your network)
  --port N         port (default: a free one)
  --home DIR       data directory (default $REINAGENT_HOME or ~/.reinagent)
  --no-open        do not open a window
  --keep-running   keep the server running after the last window closed
  --tls-cert FILE  PEM certificate (serve over HTTPS; needs --tls-key)
  --tls-key FILE   PEM private key
  --format FORMAT  openai-chat-completions | openai-responses | anthropic-messages |
                   google-generative-ai
  --api-key-env VAR   read the API key from environment variable VAR
  --api-key-stdin     read the API key from standard input (never echoed)`;

export interface ServerCommand {
  kind: "window" | "serve";
  host?: string;
  port?: number;
  home?: string;
  noOpen: boolean;
  /** The server stays after its last window closed. */
  keepRunning?: boolean;
  tlsCert?: string;
  tlsKey?: string;
}

export type Command =
  | ServerCommand
  | CatalogCommand
  | McpCommand
  | SkillsCommand
  | CarryCommand
  | AutomationsCommand
  | MemoryCommand
  | ({ kind: "run" } & RunArgs)
  | ({ kind: "tasks" } & TasksArgs)
  | ({ kind: "hooks" } & HooksArgs)
  | ({ kind: "plugins" } & PluginsArgs)
  | ({ kind: "update" } & UpdateArgs)
  | ({ kind: "mcp-serve" } & McpServeArgs)
  | { kind: "acp"; home?: string }
  | { kind: "doctor"; home?: string }
  | { kind: "help" }
  | { kind: "version" };

type Parsed = { command: Command } | { error: string };

/**
 * Subcommands by name. Adding one (e.g. `run`) = one entry here plus its parser; the
 * bare `reinagent [flags]` form starts the server with a window.
 */
const SUBCOMMANDS: Record<string, (args: string[]) => Parsed> = {
  serve: (args) => parseServer("serve", args),
  providers: parseProvidersArgs,
  models: parseModelsArgs,
  doctor: (args) => {
    const f = parseFlags(args, { values: ["--home"] });
    if ("error" in f) return f;
    if (f.positional.length) {
      return { error: `doctor takes no arguments, got "${f.positional[0]}"` };
    }
    return { command: { kind: "doctor", home: f.values["--home"] } };
  },
  run: (args) => {
    const r = parseRunArgs(args);
    return "error" in r ? r : { command: { kind: "run", ...r } };
  },
  tasks: (args) => {
    const r = parseTasksArgs(args);
    return "error" in r ? r : { command: { kind: "tasks", ...r } };
  },
  export: parseExportArgs,
  import: parseImportArgs,
  backup: parseBackupArgs,
  restore: parseRestoreArgs,
  automations: parseAutomationsArgs,
  memory: parseMemoryArgs,
  hooks: (args) => {
    const r = parseHooksArgs(args);
    return "error" in r ? r : { command: { kind: "hooks", ...r } };
  },
  update: (args) => {
    const r = parseUpdateArgs(args);
    return "error" in r ? r : { command: { kind: "update", ...r } };
  },
  plugins: (args) => {
    const r = parsePluginsArgs(args);
    return "error" in r ? r : { command: { kind: "plugins", ...r } };
  },
  mcp: (args) => {
    if (args[0] === "serve") {
      const r = parseMcpServeArgs(args.slice(1));
      return "error" in r ? r : { command: { kind: "mcp-serve", ...r } };
    }
    return parseMcpArgs(args);
  },
  skills: parseSkillsArgs,
  acp: (args) => {
    const f = parseFlags(args, { values: ["--home"] });
    if ("error" in f) return f;
    if (f.positional.length) return { error: `acp takes no arguments, got "${f.positional[0]}"` };
    return { command: { kind: "acp", home: f.values["--home"] } };
  },
};

const VALUE_FLAGS = new Set(["--host", "--port", "--home", "--tls-cert", "--tls-key"]);

export function parseCli(argv: string[]): Parsed {
  if (argv.includes("--help") || argv.includes("-h")) return { command: { kind: "help" } };
  if (argv.includes("--version") || argv.includes("-V")) return { command: { kind: "version" } };
  if (argv[0] && !argv[0].startsWith("-")) {
    const parse = Object.hasOwn(SUBCOMMANDS, argv[0]) ? SUBCOMMANDS[argv[0]] : undefined;
    return parse ? parse(argv.slice(1)) : { error: `unknown command "${argv[0]}"` };
  }
  return parseServer("window", argv);
}

function parseServer(kind: ServerCommand["kind"], argv: string[]): Parsed {
  const cmd: ServerCommand = { kind, noOpen: false };
  const args = [...argv];
  while (args.length) {
    let flag = args.shift()!;
    let value: string | undefined;
    const eq = flag.indexOf("=");
    if (flag.startsWith("--") && eq > 0) {
      value = flag.slice(eq + 1);
      flag = flag.slice(0, eq);
    }
    if (flag === "--no-open") {
      cmd.noOpen = true;
      continue;
    }
    if (flag === "--keep-running") {
      if (cmd.kind !== "window") {
        return { error: "--keep-running is only for `reinagent` (serve always keeps running)" };
      }
      cmd.keepRunning = true;
      continue;
    }
    if (!VALUE_FLAGS.has(flag)) return { error: `unknown option "${flag}"` };
    value ??= args.shift();
    if (value === undefined || value === "") return { error: `${flag} needs a value` };
    switch (flag) {
      case "--host":
        if (cmd.kind !== "serve") return { error: "--host is only for `reinagent serve`" };
        cmd.host = value;
        break;
      case "--port": {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 0 || n > 65535) {
          return { error: `--port must be 0–65535, got "${value}"` };
        }
        cmd.port = n;
        break;
      }
      case "--home":
        cmd.home = value;
        break;
      case "--tls-cert":
        cmd.tlsCert = value;
        break;
      case "--tls-key":
        cmd.tlsKey = value;
        break;
    }
  }
  if (Boolean(cmd.tlsCert) !== Boolean(cmd.tlsKey)) {
    return { error: "--tls-cert and --tls-key go together" };
  }
  if (cmd.tlsCert && cmd.kind !== "serve") {
    return { error: "TLS options are only for `reinagent serve`" };
  }
  return { command: cmd };
}
