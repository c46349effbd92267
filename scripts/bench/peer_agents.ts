/**
 * The agents of the peer benchmark: how each is installed (pinned npm versions), pointed
 * at the mock LLM in the wire format it speaks (dummy keys only), started in its headless
 * one-shot mode, and which of its own tools carry the scenario's 10 steps.
 *
 * Every agent does the same work: list src/, read nine modules, answer. Each uses its
 * own list/read tools; an agent without one uses its shell tool (said in the report).
 */
import { join } from "node:path";
import type { MockToolCall } from "../mock_llm/scenario.ts";
import type { Format } from "../mock_llm/formats.ts";
import { homeWithProvider } from "../../tests/helpers/seed.ts";
import { BUNDLE_RUN_FLAGS, ensureServer, SERVER_ENTRY } from "../build-server.ts";

export const PROMPT = "Read the modules in src/ and tell me what each one exports.";
/** The number of modules the scenario reads (steps = 1 listing + READS). */
export const READS = 9;
export const FINAL_TEXT = "Each module exports one function and one marker. BENCH-DONE";

export interface PeerContext {
  /** The mock LLM's origin, e.g. http://127.0.0.1:PORT */
  base: string;
  /** This peer's own folder (config, sessions), kept across its runs. */
  home: string;
  /** The generated repository the agent works in. */
  repo: string;
  /** Folder of the npm install (node_modules/.bin). */
  prefix: string;
}

export interface PeerLaunch {
  cmd: string[];
  env: Record<string, string>;
}

export interface Peer {
  id: string;
  label: string;
  /**
   * `postinstall`: the package's own install script (node, in its folder), run after the
   * install: it puts the platform binary in place. No other package runs scripts.
   */
  npm?: { pkg: string; version: string; bin: string; postinstall?: string };
  /** The model name of the main conversation (the mock's scenario). */
  model: string;
  /** A model for side requests (titles etc.) that answers with text only. */
  smallModel?: string;
  format: Format;
  /** What the report says about the tools used. */
  tools: string;
  /** How it is run, and anything seen that shapes its numbers. */
  note: string;
  /** The scenario's tool calls: one listing, then READS reads (module numbers 1..READS). */
  listCall(repo: string): MockToolCall;
  readCall(repo: string, file: string): MockToolCall;
  /** Writes the peer's config into ctx.home (once) and says how to start one run. */
  prepare(ctx: PeerContext): Promise<PeerLaunch>;
}

const bin = (ctx: PeerContext, name: string) => join(ctx.prefix, "node_modules", ".bin", name);

/**
 * The environment every run gets (the bench clears the rest, so no real key leaks in).
 * HOME is the peer's own empty folder: the login shells some agents start per command
 * must not run this machine's profile (here it starts pyenv: dozens of processes).
 */
export function baseEnv(home: string): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    CI: "1",
  };
}

function denoDir(): string {
  return Deno.env.get("DENO_DIR") ??
    join(Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/root", ".cache"), "deno");
}

const reinagent: Peer = {
  id: "reinagent",
  label: "ReinAgent",
  model: "bench",
  format: "chat",
  tools: "list_dir, read_file",
  note: "`deno run … dist/server/main.js run`: the bundled program `deno task start` runs " +
    "(scripts/build-server.ts; not compiled), a home seeded with the mock provider",
  listCall: () => ({ name: "list_dir", args: { path: "src" } }),
  readCall: (_repo, file) => ({ name: "read_file", args: { path: file } }),
  async prepare(ctx) {
    console.error(await ensureServer());
    const seeded = await homeWithProvider(ctx.base, ["bench"], { dir: ctx.home });
    return {
      cmd: [
        Deno.execPath(),
        ...BUNDLE_RUN_FLAGS,
        SERVER_ENTRY,
        "run",
        PROMPT,
        "--home",
        seeded,
        "--project",
        ctx.repo,
        "--model",
        "mock/bench",
      ],
      // The module cache stays the usual one (warm), whatever HOME is.
      env: { ...baseEnv(ctx.home), DENO_DIR: denoDir() },
    };
  },
};

const codex: Peer = {
  id: "codex",
  label: "Codex",
  npm: { pkg: "@openai/codex", version: "0.171.0", bin: "codex" },
  model: "bench",
  format: "responses",
  tools: "exec_command (`ls`, `cat`: Codex has no file tools; read-only sandbox, its default)",
  note:
    "the npm launcher (Node.js) starts the native binary; both count. Each command runs in its read-only sandbox (bubblewrap)",
  listCall: () => ({ name: "exec_command", args: { cmd: "ls src" } }),
  readCall: (_repo, file) => ({ name: "exec_command", args: { cmd: `cat ${file}` } }),
  async prepare(ctx) {
    const codexHome = join(ctx.home, "codex-home");
    await Deno.mkdir(codexHome, { recursive: true });
    await Deno.writeTextFile(
      join(codexHome, "config.toml"),
      [
        'model = "bench"',
        'model_provider = "mock"',
        "[model_providers.mock]",
        'name = "mock"',
        `base_url = "${ctx.base}/v1"`,
        'env_key = "MOCK_API_KEY"',
        'wire_api = "responses"',
        "",
      ].join("\n"),
    );
    return {
      cmd: [bin(ctx, "codex"), "exec", "--skip-git-repo-check", "--color", "never", PROMPT],
      env: { ...baseEnv(ctx.home), CODEX_HOME: codexHome, MOCK_API_KEY: "sk-mock" },
    };
  },
};

const pi: Peer = {
  id: "pi",
  label: "pi",
  npm: { pkg: "@mariozechner/pi-coding-agent", version: "0.73.1", bin: "pi" },
  model: "bench",
  format: "chat",
  tools: "ls, read (default tools plus `ls`)",
  note: "Node.js script (the machine's Node.js); `PI_OFFLINE=1` (no update check)",
  listCall: () => ({ name: "ls", args: { path: "src" } }),
  readCall: (_repo, file) => ({ name: "read", args: { path: file } }),
  async prepare(ctx) {
    const dir = join(ctx.home, "pi-agent");
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(
      join(dir, "models.json"),
      JSON.stringify({
        providers: {
          mock: {
            baseUrl: `${ctx.base}/v1`,
            api: "openai-completions",
            apiKey: "sk-mock",
            compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
            models: [{ id: "bench" }],
          },
        },
      }),
    );
    return {
      cmd: [
        bin(ctx, "pi"),
        "-p",
        "--provider",
        "mock",
        "--model",
        "bench",
        "--tools",
        "read,bash,edit,write,ls",
        PROMPT,
      ],
      env: { ...baseEnv(ctx.home), PI_CODING_AGENT_DIR: dir, PI_OFFLINE: "1" },
    };
  },
};

const claude: Peer = {
  id: "claude",
  label: "Claude Code",
  npm: {
    pkg: "@anthropic-ai/claude-code",
    version: "2.1.332",
    bin: "claude",
    postinstall: "install.cjs",
  },
  model: "claude-sonnet-4-5",
  smallModel: "claude-haiku-4-5",
  format: "anthropic",
  tools: "Bash (`ls`: no list tool in this version), Read",
  note:
    "native binary; `--dangerously-skip-permissions` (with `IS_SANDBOX=1`, as it runs as root); non-essential traffic off. It warns that the Sonnet 4.5 id is retired (a warning only)",
  listCall: () => ({ name: "Bash", args: { command: "ls src", description: "List src" } }),
  readCall: (repo, file) => ({ name: "Read", args: { file_path: join(repo, file) } }),
  prepare(ctx) {
    return Promise.resolve({
      cmd: [
        bin(ctx, "claude"),
        "-p",
        "--model",
        "claude-sonnet-4-5",
        "--dangerously-skip-permissions",
        PROMPT,
      ],
      env: {
        ...baseEnv(ctx.home),
        CLAUDE_CONFIG_DIR: join(ctx.home, ".claude"),
        ANTHROPIC_BASE_URL: ctx.base,
        ANTHROPIC_API_KEY: "sk-ant-mock",
        ANTHROPIC_SMALL_FAST_MODEL: "claude-haiku-4-5",
        ANTHROPIC_DEFAULT_HAIKU_MODEL: "claude-haiku-4-5",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
        DISABLE_TELEMETRY: "1",
        // Claude Code refuses --dangerously-skip-permissions as root unless told it is sandboxed.
        IS_SANDBOX: "1",
      },
    });
  },
};

const opencode: Peer = {
  id: "opencode",
  label: "opencode",
  npm: { pkg: "opencode-ai", version: "1.18.33", bin: "opencode", postinstall: "postinstall.mjs" },
  model: "bench",
  smallModel: "bench-small",
  format: "chat",
  tools: "glob (no list tool in this version), read",
  note:
    'its log shows seconds between start-up and the first step (a "project copy refresh" of the repository, then the loop) and an attempt to download ripgrep from GitHub, unreachable here; LSPs are off',
  listCall: () => ({ name: "glob", args: { pattern: "src/*.ts" } }),
  readCall: (repo, file) => ({ name: "read", args: { filePath: join(repo, file) } }),
  async prepare(ctx) {
    const config = join(ctx.home, ".config");
    await Deno.mkdir(join(config, "opencode"), { recursive: true });
    await Deno.writeTextFile(
      join(config, "opencode", "opencode.json"),
      JSON.stringify({
        $schema: "https://opencode.ai/config.json",
        provider: {
          mock: {
            npm: "@ai-sdk/openai-compatible",
            name: "Mock",
            options: { baseURL: `${ctx.base}/v1`, apiKey: "sk-mock" },
            models: { bench: { name: "bench" }, "bench-small": { name: "bench-small" } },
          },
        },
        model: "mock/bench",
        small_model: "mock/bench-small",
        autoupdate: false,
        share: "disabled",
      }),
    );
    return {
      cmd: [bin(ctx, "opencode"), "run", "--model", "mock/bench", PROMPT],
      env: {
        ...baseEnv(ctx.home),
        XDG_CONFIG_HOME: config,
        XDG_DATA_HOME: join(ctx.home, ".local", "share"),
        XDG_CACHE_HOME: join(ctx.home, ".cache"),
        XDG_STATE_HOME: join(ctx.home, ".local", "state"),
        OPENCODE_DISABLE_MODELS_FETCH: "1",
        OPENCODE_DISABLE_AUTOUPDATE: "1",
      },
    };
  },
};

/** ReinAgent first: the ratios are to it. */
export const PEERS: Peer[] = [reinagent, codex, pi, claude, opencode];
