/**
 * `reinagent doctor`: checks the data dir, the database, providers, the shell sandbox,
 * the tool sandbox and the window backend, and says plainly what works.
 */
import { dbPath, HOME_DIRS } from "../home.ts";
import { sandboxStatus } from "../../tools/exec/bwrap.ts";
import { openHomeClient } from "./home_client.ts";
import type { ProviderList, SystemSettings } from "../../protocol/providers.ts";
import type { CommandSafetyInfo } from "../../protocol/index.ts";
import { SandboxPool } from "../../tools/sandbox/pool.ts";
import { describeBackend } from "../window/backend.ts";
import { probeNative } from "../window/native/spawn.ts";
import { instanceInfo } from "../instance/client.ts";
import { readLockInfo } from "../instance/lock.ts";
import { VERSION } from "../version.ts";
import { readServers } from "../mcp/config.ts";

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

async function dataDir(home: string): Promise<Check> {
  try {
    const st = await Deno.stat(home);
    if (!st.isDirectory) return { name: "data dir", ok: false, detail: `${home} is not a folder` };
    const probe = `${home}/.doctor-${crypto.randomUUID()}`;
    await Deno.writeTextFile(probe, "x");
    await Deno.remove(probe);
    const missing = [];
    for (const d of HOME_DIRS) {
      if (!(await Deno.stat(`${home}/${d}`).catch(() => null))) missing.push(d);
    }
    return {
      name: "data dir",
      ok: true,
      detail: `${home} (writable${
        missing.length ? `; created on start: ${missing.join(", ")}` : ""
      })`,
    };
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      return { name: "data dir", ok: true, detail: `${home} (created on first start)` };
    }
    return { name: "data dir", ok: false, detail: `${home}: ${(e as Error).message}` };
  }
}

/** The MCP servers file: readable (servers counted, not started) or corrupt (left untouched). */
async function mcpServers(home: string): Promise<Check> {
  const r = await readServers(home);
  if (!r.ok) return { name: "MCP servers", ok: false, detail: `${r.error} (left untouched)` };
  const on = r.servers.filter((s) => s.enabled);
  return {
    name: "MCP servers",
    ok: true,
    detail: r.servers.length
      ? `${r.servers.length} configured, ${on.length} enabled (${
        on.map((s) => s.id).join(", ") || "none"
      }) in ${r.path}; check them with \`reinagent mcp list\``
      : `none (${r.path}; add one with \`reinagent mcp add\`)`,
  };
}

/** Runs a tiny read in a sandbox worker: proves worker permissions work in this runtime. */
async function toolSandbox(home: string): Promise<Check> {
  const pool = new SandboxPool();
  try {
    const dir = await Deno.makeTempDir();
    const r = await pool.run("read", [dir], "list_dir", {}, dir, new AbortController().signal);
    await Deno.remove(dir, { recursive: true });
    return r.isError ? { name: "tool sandbox", ok: false, detail: r.content } : {
      name: "tool sandbox",
      ok: true,
      detail: "Deno permission workers (file tools see only the workspace)",
    };
  } catch (e) {
    return { name: "tool sandbox", ok: false, detail: `${(e as Error).message} (home ${home})` };
  } finally {
    pool.closeAll();
  }
}

/** Whether a server runs on this data dir (read only: the lock is never taken here). */
async function instanceCheck(home: string): Promise<Check> {
  const running = await instanceInfo(home);
  if (running) {
    const i = running.info;
    return {
      name: "instance",
      ok: true,
      detail: `running (pid ${i.pid}, ${i.mode}) at ${i.base}; ${i.activeRuns} task(s) running, ` +
        `${i.openWindows} window(s) open; a second start hands over to it`,
    };
  }
  const holder = await readLockInfo(home);
  return {
    name: "instance",
    ok: true,
    detail: holder
      ? `none answering; the lock names pid ${holder.pid} (${holder.role}): ` +
        "if that process is gone, the next start takes the data dir over"
      : "none running",
  };
}

/**
 * The database, providers, shell sandbox and command environment, as the owner of the
 * data dir sees them: the running instance when there is one (this process then never
 * opens the database), otherwise this process with the lock held.
 */
async function storeChecks(home: string): Promise<Check[]> {
  const opened = await openHomeClient(home, "cli");
  if ("error" in opened) {
    return [{ name: "database", ok: false, detail: opened.storeError ?? opened.error }];
  }
  const { client, remote } = opened;
  try {
    const { providers: all } = await client.request<ProviderList>("providers.list");
    const s = await client.request<SystemSettings>("settings.get");
    const env = await client.request<CommandSafetyInfo>("safety.info");
    const providers = all.filter((p) => p.enabled && !p.readOnly);
    const def = s.defaultModel
      ? `${s.defaultModel.providerId}/${s.defaultModel.modelId}`
      : "Demo (no default chosen)";
    const sb = await sandboxStatus();
    return [
      {
        name: "database",
        ok: true,
        detail: remote ? `${dbPath(home)} (opened by the running instance)` : dbPath(home),
      },
      {
        name: "providers",
        ok: true,
        detail: `${providers.length} enabled${
          providers.length
            ? ` (${providers.map((p) => p.id).join(", ")})`
            : " — only the Demo model"
        }; default model: ${def}`,
      },
      {
        name: "shell sandbox",
        ok: true,
        detail: sb.available
          ? `bubblewrap (${sb.path}); level ${s.sandboxLevel}, network ${
            s.sandboxNetwork ? "on" : "off"
          }${sb.networkIsolation === false ? " (network isolation unavailable)" : ""}`
          : `none — shell commands run unsandboxed (${
            sb.reason ?? "bwrap not available"
          }); level setting: ${s.sandboxLevel}`,
      },
      {
        name: "command environment",
        ok: true,
        detail: `${env.withheld.length} variables withheld from commands${
          env.withheld.length
            ? ` (${env.withheld.map((w) => `${w.name}: ${w.reason}`).join(", ")})`
            : ""
        }; allowed through: ${env.allow.length ? env.allow.join(", ") : "none"}`,
      },
      {
        name: "hidden from commands",
        ok: true,
        detail: `${env.hidden.join(", ")} (inside the sandbox; with level off nothing is hidden)`,
      },
    ];
  } catch (e) {
    return [{ name: "database", ok: false, detail: (e as Error).message }];
  } finally {
    await client.close();
  }
}

export async function runDoctor(home: string, print: (s: string) => void): Promise<number> {
  const checks: Check[] = [await dataDir(home), ...await storeChecks(home)];
  checks.push(await mcpServers(home));
  checks.push(await toolSandbox(home));
  checks.push({
    name: "window",
    ok: true,
    detail: await describeBackend(home, (b) => probeNative(b.native!, home)),
  });
  checks.push(await instanceCheck(home));
  print(`reinagent ${VERSION} doctor`);
  for (const c of checks) print(`  ${c.ok ? "✓" : "✗"} ${c.name}: ${c.detail}`);
  return checks.every((c) => c.ok) ? 0 : 1;
}
