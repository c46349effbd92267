/**
 * Runs the provider/model CLI commands directly on the database in the data dir,
 * through the same catalog functions as the WebSocket ops (SQLite WAL + busy_timeout
 * make this safe while a server runs). Keys are read from an environment variable or
 * stdin and never printed (only masked).
 *
 * Exit codes: 0 ok, 1 the operation failed (e.g. the provider answered an error),
 * 2 bad input.
 */
import { applyProxyFile } from "../net/proxy_config.ts";
import { recordKeyEnvName } from "../agent/command_policy.ts";
import { dbPath, ensureHome, resolveHome } from "../home.ts";
import { Store } from "../../store/store.ts";
import { OpError } from "../errors.ts";
import {
  addProvider,
  type CatalogRepos,
  deleteProvider,
  getSettings,
  listProviders,
  setDefaultModel,
  toPublic,
} from "../providers/catalog.ts";
import { fetchModels, updateModel } from "../providers/catalog_models.ts";
import type { ModelInfo } from "../providers/types.ts";
import type { PublicProvider } from "../../protocol/providers.ts";
import type { CatalogCommand } from "./providers_args.ts";

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  env(name: string): string | undefined;
  /** The API key typed or piped on stdin. */
  readKey(): Promise<string>;
}

class UsageError extends Error {}

/** `128000` → `128K`, `131072` → `128K`, `1048576` → `1M`; null → "not provided". */
export function tokens(n: number | null): string {
  if (n === null) return "not provided";
  const scaled = (dec: number, bin: number, unit: string) => {
    const base = n % dec !== 0 && n % bin === 0 ? bin : dec;
    return `${+(n / base).toFixed(1)}${unit}`;
  };
  if (n >= 1_000_000) return scaled(1_000_000, 1_048_576, "M");
  if (n >= 1000) return scaled(1000, 1024, "K");
  return String(n);
}

function describeModel(m: ModelInfo): string {
  const vision = m.vision === null ? "not provided" : m.vision ? "yes" : "no";
  const effort = m.effortLevels ? `, effort ${m.effortLevels.join("/")}` : "";
  return `${m.id}${m.name !== m.id ? ` "${m.name}"` : ""} (context ${
    tokens(m.contextWindow)
  }, max output ${tokens(m.maxOutput)}, vision ${vision}${effort})`;
}

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd());
}

function listText(providers: PublicProvider[], repos: CatalogRepos): string[] {
  const def = getSettings(repos).defaultModel;
  const rows = [["ID", "NAME", "FORMAT", "BASE URL", "KEY", "ENABLED", "MODELS"]];
  for (const p of providers) {
    const on = p.models.filter((m) => m.enabled).length;
    rows.push([
      p.id,
      p.name,
      p.format,
      p.baseUrl || "-",
      p.readOnly ? "-" : p.hasKey ? p.apiKeyMasked : "(none)",
      p.enabled ? "yes" : "no",
      `${on}/${p.models.length} enabled`,
    ]);
  }
  return [
    ...table(rows),
    "",
    def
      ? `Default model: ${def.providerId}/${def.modelId}`
      : "Default model: none set (new tasks use the Demo model)",
  ];
}

async function readApiKey(cmd: { apiKeyEnv?: string; apiKeyStdin: boolean }, io: CliIo) {
  if (cmd.apiKeyEnv) {
    const v = io.env(cmd.apiKeyEnv)?.trim();
    if (!v) throw new UsageError(`environment variable ${cmd.apiKeyEnv} is empty or not set`);
    return v;
  }
  if (cmd.apiKeyStdin) {
    const v = (await io.readKey()).trim();
    if (!v) throw new UsageError("no API key was given on stdin");
    return v;
  }
  return "";
}

async function run(cmd: CatalogCommand, repos: CatalogRepos, io: CliIo): Promise<void> {
  if (cmd.kind === "models") {
    if (cmd.action === "fetch") {
      const before = new Set(repos.providers.get(cmd.id)?.models.map((m) => m.id) ?? []);
      const r = await fetchModels(repos, cmd.id);
      const fresh = r.provider.models.filter((m) => !before.has(m.id));
      io.out(
        `Fetched ${r.total} models from ${r.provider.name}: ${r.added} new (disabled until you enable them), ${r.provider.models.length} in total.`,
      );
      for (const m of fresh) io.out(`  + ${describeModel(m)}`);
      return;
    }
    const enabled = cmd.action === "enable";
    updateModel(repos, cmd.id, cmd.modelId, { enabled });
    io.out(`${enabled ? "Enabled" : "Disabled"} model ${cmd.id}/${cmd.modelId}.`);
    return;
  }
  switch (cmd.action) {
    case "list": {
      const providers = listProviders(repos);
      if (cmd.json) {
        io.out(
          JSON.stringify({ providers, defaultModel: getSettings(repos).defaultModel }, null, 2),
        );
      } else for (const line of listText(providers, repos)) io.out(line);
      return;
    }
    case "add": {
      const apiKey = await readApiKey(cmd, io);
      const p = toPublic(addProvider(repos, {
        id: cmd.id,
        name: cmd.name ?? cmd.id,
        format: cmd.format,
        baseUrl: cmd.baseUrl,
        apiKey,
        models: cmd.models,
      }));
      // Commands the agent runs never get this variable (nor any holding the key).
      if (cmd.apiKeyEnv) recordKeyEnvName(repos, cmd.apiKeyEnv);
      io.out(`Added provider ${p.id} "${p.name}" (${p.format}, ${p.baseUrl}).`);
      io.out(`  key: ${p.hasKey ? `stored (${p.apiKeyMasked})` : "none"}`);
      if (p.models.length) io.out(`  models: ${p.models.map((m) => m.id).join(", ")}`);
      return;
    }
    case "remove": {
      const r = deleteProvider(repos, cmd.id);
      io.out(`Removed provider ${cmd.id}.`);
      if (r.defaultCleared) {
        io.out("  It held the default model; the default is now unset (new tasks use Demo).");
      }
      return;
    }
    case "set-default": {
      const s = setDefaultModel(repos, { providerId: cmd.id, modelId: cmd.modelId });
      io.out(`Default model: ${s.defaultModel!.providerId}/${s.defaultModel!.modelId}`);
      return;
    }
  }
}

/** Runs one command against `<home>/reinagent.db`; returns the exit code. */
export async function runCatalogCommand(
  cmd: CatalogCommand,
  io: CliIo = defaultIo(),
): Promise<number> {
  const home = resolveHome(cmd.home);
  ensureHome(home);
  await applyProxyFile(home); // `models fetch` goes out through the proxy setting
  const store = new Store(dbPath(home));
  try {
    if (!store.repos) {
      io.err(
        `reinagent: the database could not be opened (${store.health.error}); it was left untouched: ${store.health.path}`,
      );
      return 1;
    }
    await run(cmd, store.repos, io);
    return 0;
  } catch (e) {
    io.err(`reinagent: ${(e as Error).message}`);
    return e instanceof UsageError || (e instanceof OpError && e.code === "invalid_args") ? 2 : 1;
  } finally {
    store.close();
  }
}

/** Reads a line from a terminal without echoing it, or all of piped stdin. */
async function readStdinKey(): Promise<string> {
  if (!Deno.stdin.isTerminal()) return await new Response(Deno.stdin.readable).text();
  await Deno.stderr.write(new TextEncoder().encode("API key (not shown): "));
  Deno.stdin.setRaw(true);
  const bytes: number[] = [];
  const buf = new Uint8Array(64);
  try {
    outer: for (;;) {
      const n = await Deno.stdin.read(buf);
      if (n === null) break;
      for (const b of buf.subarray(0, n)) {
        if (b === 13 || b === 10 || b === 4) break outer; // Enter or Ctrl-D
        if (b === 3) throw new UsageError("cancelled"); // Ctrl-C
        if (b === 127 || b === 8) bytes.pop();
        else bytes.push(b);
      }
    }
  } finally {
    Deno.stdin.setRaw(false);
    await Deno.stderr.write(new TextEncoder().encode("\n"));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function defaultIo(): CliIo {
  return {
    out: (l) => console.log(l),
    err: (l) => console.error(l),
    env: (n) => Deno.env.get(n),
    readKey: readStdinKey,
  };
}
