/**
 * The provider/model CLI commands, carried out as ops: by the running instance of the
 * data dir when there is one (the one owner of its database), otherwise in this process.
 * Keys are read from an environment variable or stdin and never printed (only masked).
 *
 * Exit codes: 0 ok, 1 the operation failed (e.g. the provider answered an error),
 * 2 bad input.
 */
import { applyProxyFile } from "../net/proxy_config.ts";
import { resolveHome } from "../home.ts";
import type { ModelInfo } from "../../agent/index.ts";
import type { ProviderList, PublicProvider } from "../../protocol/providers.ts";
import type { CatalogCommand } from "./providers_args.ts";
import { type OpClient, OpClientError } from "./op_client.ts";
import { openHomeClient, VIA_INSTANCE } from "./home_client.ts";

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

function listText({ providers, defaultModel: def }: ProviderList): string[] {
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

async function run(cmd: CatalogCommand, client: OpClient, io: CliIo): Promise<void> {
  if (cmd.kind === "models") {
    if (cmd.action === "fetch") {
      const { providers } = await client.request<ProviderList>("providers.list");
      const before = new Set(providers.find((p) => p.id === cmd.id)?.models.map((m) => m.id));
      const r = await client.request<{ provider: PublicProvider; added: number; total: number }>(
        "models.fetch",
        { providerId: cmd.id },
      );
      const fresh = r.provider.models.filter((m) => !before.has(m.id));
      io.out(
        `Fetched ${r.total} models from ${r.provider.name}: ${r.added} new (disabled until you enable them), ${r.provider.models.length} in total.`,
      );
      for (const m of fresh) io.out(`  + ${describeModel(m)}`);
      return;
    }
    const enabled = cmd.action === "enable";
    await client.request("models.update", {
      providerId: cmd.id,
      modelId: cmd.modelId,
      patch: { enabled },
    });
    io.out(`${enabled ? "Enabled" : "Disabled"} model ${cmd.id}/${cmd.modelId}.`);
    return;
  }
  switch (cmd.action) {
    case "list": {
      const list = await client.request<ProviderList>("providers.list");
      if (cmd.json) io.out(JSON.stringify(list, null, 2));
      else for (const line of listText(list)) io.out(line);
      return;
    }
    case "add": {
      const apiKey = await readApiKey(cmd, io);
      const { provider: p } = await client.request<{ provider: PublicProvider }>(
        "providers.add",
        {
          id: cmd.id,
          name: cmd.name ?? cmd.id,
          format: cmd.format,
          baseUrl: cmd.baseUrl,
          apiKey,
          models: cmd.models,
          // Commands the agent runs never get this variable (nor any holding the key).
          ...(cmd.apiKeyEnv ? { keyEnvName: cmd.apiKeyEnv } : {}),
        },
      );
      io.out(`Added provider ${p.id} "${p.name}" (${p.format}, ${p.baseUrl}).`);
      io.out(`  key: ${p.hasKey ? `stored (${p.apiKeyMasked})` : "none"}`);
      if (p.models.length) io.out(`  models: ${p.models.map((m) => m.id).join(", ")}`);
      return;
    }
    case "remove": {
      const r = await client.request<{ defaultCleared: boolean }>("providers.delete", {
        id: cmd.id,
      });
      io.out(`Removed provider ${cmd.id}.`);
      if (r.defaultCleared) {
        io.out("  It held the default model; the default is now unset (new tasks use Demo).");
      }
      return;
    }
    case "set-default": {
      const s = await client.request<{ defaultModel: ProviderList["defaultModel"] }>(
        "settings.setDefaultModel",
        { providerId: cmd.id, modelId: cmd.modelId },
      );
      io.out(`Default model: ${s.defaultModel!.providerId}/${s.defaultModel!.modelId}`);
      return;
    }
  }
}

/**
 * Runs one command on the data dir: through the running instance when there is one (it
 * owns the database), otherwise in this process. Returns the exit code.
 */
export async function runCatalogCommand(
  cmd: CatalogCommand,
  io: CliIo = defaultIo(),
): Promise<number> {
  const home = resolveHome(cmd.home);
  await applyProxyFile(home); // `models fetch` goes out through the proxy setting
  const opened = await openHomeClient(home, "cli");
  if ("error" in opened) {
    io.err(`reinagent: ${opened.error}`);
    return 1;
  }
  if (opened.remote) io.err(VIA_INSTANCE);
  try {
    await run(cmd, opened.client, io);
    return 0;
  } catch (e) {
    io.err(`reinagent: ${(e as Error).message}`);
    if (e instanceof UsageError) return 2;
    return e instanceof OpClientError && e.code === "invalid_args" ? 2 : 1;
  } finally {
    await opened.client.close();
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
