/**
 * Language servers for diagnostics after file changes: TypeScript/JavaScript
 * (typescript-language-server with its own typescript) and Python (pyright), installed
 * from npm into the data folder on first need, started lazily per workspace inside the
 * commands' bubblewrap sandbox (read-only, no network, the data folder hidden but the
 * servers' own install), and stopped when idle. Every step has a deadline: without a
 * sandbox, npm or an answer, a change simply gets no diagnostics.
 */
import { extname, join } from "../../../lib/path.ts";
import { bwrapArgs, type Hidden, sandboxStatus } from "../../../tools/exec/bwrap.ts";
import { displayPath } from "../../../tools/paths.ts";
import { LspClient } from "./client.ts";
import type { Diagnostic } from "../../../protocol/tool_details.ts";

interface Language {
  id: "typescript" | "python";
  packages: string[];
  bin: string;
  args: string[];
  languageId(ext: string): string;
  init(dir: string): Record<string, unknown>;
}

const TS_EXTS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
const LANGUAGES: Record<string, Language> = {
  typescript: {
    id: "typescript",
    packages: ["typescript-language-server@4", "typescript@5"],
    bin: "typescript-language-server",
    args: ["--stdio"],
    languageId: (ext) =>
      ext.startsWith(".ts") || ext === ".mts" || ext === ".cts"
        ? (ext === ".tsx" ? "typescriptreact" : "typescript")
        : ext === ".jsx"
        ? "javascriptreact"
        : "javascript",
    // Our own typescript, never one the workspace holds (its code would run here).
    init: (dir) => ({ tsserver: { path: join(dir, "node_modules", "typescript", "lib") } }),
  },
  python: {
    id: "python",
    packages: ["pyright@1"],
    bin: "pyright-langserver",
    args: ["--stdio"],
    languageId: () => "python",
    init: () => ({}),
  },
};

export function languageOf(path: string): Language | null {
  const ext = extname(path).toLowerCase();
  if (TS_EXTS.includes(ext)) return LANGUAGES.typescript;
  if (ext === ".py" || ext === ".pyi") return LANGUAGES.python;
  return null;
}

export type { Diagnostic } from "../../../protocol/tool_details.ts";

interface Running {
  client: LspClient;
  versions: Map<string, number>;
  /** uri → resolvers waiting for its next diagnostics. */
  listeners: Map<string, ((d: Record<string, unknown>[]) => void)[]>;
  idle?: ReturnType<typeof setTimeout>;
}

const INSTALL_MS = 180_000;
const START_MS = 30_000;
const IDLE_MS = 5 * 60_000;

export class LspManager {
  private installs = new Map<string, Promise<string | null>>();
  private running = new Map<string, Promise<Running | null>>();

  constructor(
    private home: string,
    /** Paths hidden from the server as from commands (the data folder, credentials). */
    private hidden: () => Hidden[] = () => [],
    private opts: { waitMs?: number } = {},
  ) {}

  /** The server's install folder, installing it the first time; null when that fails. */
  install(lang: Language): Promise<string | null> {
    let p = this.installs.get(lang.id);
    if (!p) {
      p = this.doInstall(lang);
      this.installs.set(lang.id, p);
      p.then((dir) => dir === null && this.installs.delete(lang.id));
    }
    return p;
  }

  private async doInstall(lang: Language): Promise<string | null> {
    const dir = join(this.home, "lsp", lang.id);
    const bin = join(dir, "node_modules", ".bin", lang.bin);
    if (await exists(bin)) return dir;
    await Deno.mkdir(dir, { recursive: true });
    try {
      const out = await new Deno.Command("npm", {
        args: ["install", "--prefix", dir, "--no-audit", "--no-fund", "--silent", ...lang.packages],
        stdout: "null",
        stderr: "null",
        stdin: "null",
        signal: AbortSignal.timeout(INSTALL_MS),
      }).output();
      return out.success && await exists(bin) ? dir : null;
    } catch {
      return null;
    }
  }

  private start(workspace: string, lang: Language): Promise<Running | null> {
    const key = `${lang.id}\0${workspace}`;
    let p = this.running.get(key);
    if (!p) {
      p = this.doStart(workspace, lang).catch(() => null);
      this.running.set(key, p);
      p.then((r) => {
        if (!r) this.running.delete(key);
        else r.client.ended.then(() => this.running.delete(key));
      });
    }
    return p;
  }

  private async doStart(workspace: string, lang: Language): Promise<Running | null> {
    const dir = await this.install(lang);
    if (!dir) return null;
    const sandbox = await sandboxStatus();
    if (!sandbox.available || !sandbox.path) return null; // never outside the sandbox
    const hidden = this.hidden();
    const args = bwrapArgs({
      level: "read-only",
      network: false,
      workspace,
      cwd: workspace,
      hidden,
      visible: [dir],
    });
    const bin = join(dir, "node_modules", ".bin", lang.bin);
    const client = new LspClient([sandbox.path, ...args, "--", bin, ...lang.args], {
      cwd: workspace,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: "/tmp", LANG: "C.UTF-8" },
    });
    const r: Running = { client, versions: new Map(), listeners: new Map() };
    client.onNotification = (method, params) => {
      if (method !== "textDocument/publishDiagnostics") return;
      const uri = String(params.uri);
      const list = r.listeners.get(uri);
      r.listeners.delete(uri);
      for (const l of list ?? []) l((params.diagnostics ?? []) as Record<string, unknown>[]);
    };
    try {
      await client.request("initialize", {
        processId: null,
        rootUri: toUri(workspace),
        workspaceFolders: [{ uri: toUri(workspace), name: "workspace" }],
        capabilities: { textDocument: { publishDiagnostics: { versionSupport: true } } },
        initializationOptions: lang.init(dir),
      }, START_MS);
      await client.notify("initialized", {});
    } catch {
      await client.close();
      return null;
    }
    return r;
  }

  /** Errors (and warnings with `warnings`) the servers report for `paths` now. */
  async diagnose(workspace: string, paths: string[], warnings = false): Promise<Diagnostic[]> {
    const out: Diagnostic[] = [];
    await Promise.all(paths.map(async (abs) => {
      const lang = languageOf(abs);
      if (!lang) return;
      const r = await this.start(workspace, lang);
      if (!r) return;
      this.touch(workspace, lang, r);
      let text: string;
      try {
        text = await Deno.readTextFile(abs);
      } catch {
        return; // deleted: nothing to check
      }
      const uri = toUri(abs);
      const version = (r.versions.get(uri) ?? 0) + 1;
      r.versions.set(uri, version);
      // A file's first check waits for the server's project load; later ones are quick.
      const wait = this.opts.waitMs ?? (version === 1 ? 30_000 : 10_000);
      const got = new Promise<Record<string, unknown>[] | null>((resolve) => {
        const timer = setTimeout(() => resolve(null), wait);
        const list = r.listeners.get(uri) ?? [];
        list.push((d) => {
          clearTimeout(timer);
          resolve(d);
        });
        r.listeners.set(uri, list);
      });
      try {
        if (version === 1) {
          await r.client.notify("textDocument/didOpen", {
            textDocument: { uri, languageId: lang.languageId(extname(abs)), version, text },
          });
        } else {
          await r.client.notify("textDocument/didChange", {
            textDocument: { uri, version },
            contentChanges: [{ text }],
          });
        }
      } catch {
        return;
      }
      for (const d of await got ?? []) {
        const sev = d.severity === 1 ? "error" : d.severity === 2 ? "warning" : null;
        if (!sev || (sev === "warning" && !warnings)) continue;
        const start = (d.range as { start?: { line?: number; character?: number } })?.start;
        out.push({
          path: displayPath(abs, workspace),
          line: (start?.line ?? 0) + 1,
          column: (start?.character ?? 0) + 1,
          severity: sev,
          message: String(d.message ?? "").split("\n")[0],
        });
      }
    }));
    return out.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
  }

  private touch(workspace: string, lang: Language, r: Running): void {
    clearTimeout(r.idle);
    r.idle = setTimeout(() => {
      this.running.delete(`${lang.id}\0${workspace}`);
      void r.client.close();
    }, IDLE_MS);
  }

  async closeAll(): Promise<void> {
    const all = await Promise.all([...this.running.values()]);
    this.running.clear();
    await Promise.all(all.map((r) => {
      if (!r) return;
      clearTimeout(r.idle);
      return r.client.close();
    }));
  }
}

const toUri = (p: string) => "file://" + p.split("/").map(encodeURIComponent).join("/");

async function exists(p: string): Promise<boolean> {
  try {
    await Deno.stat(p);
    return true;
  } catch {
    return false;
  }
}
