/**
 * ReinAgent command line: parses arguments, picks a mode and boots the server.
 *
 *   reinagent                 server on 127.0.0.1 + a desktop window (or a window on
 *                             the server already running for the data dir)
 *   reinagent serve           headless server (for a VPS / phones)
 *   reinagent providers …     manage model providers; `models fetch` lists a provider's models
 *   reinagent tasks           every task with its state
 *   reinagent export|import   carry tasks between machines; import other tools' sessions
 *   reinagent backup|restore  the configuration as one JSON (optionally over WebDAV)
 *   reinagent automations …   scheduled prompts (list, add, remove, run-now)
 *   reinagent memory …        the agent's memories (list, add, remove)
 *   reinagent hooks list|trust a workspace's hooks and their trust
 *   reinagent plugins …       plugins found, switched on/off, their hooks trusted
 *   reinagent update          self-update from a release manifest (sha256 checked)
 *   reinagent mcp serve       ReinAgent as an MCP server over stdio
 *   reinagent mcp …           the MCP servers the agent uses (add, list, remove, test)
 *   reinagent skills …        the skills found and their switches (list, enable, disable)
 *   reinagent --version | --help
 */
import { parseCli, type ServerCommand, USAGE } from "./server/cli/args.ts";
import { resolveHome } from "./server/home.ts";
import { VERSION } from "./server/version.ts";
import { mark } from "./lib/trace.ts";
import { claimHome } from "./server/instance/claim.ts";
import { type InstanceFile, requestWindow } from "./server/instance/client.ts";
import type { InstanceInfo } from "./server/instance/control.ts";

const enc = new TextEncoder();

/**
 * Writes all of `text` (a pipe may take a large write in parts). A reader that went away
 * (`reinagent run … | head`) ends the program quietly, as SIGPIPE does for other tools:
 * nothing more can be shown, and a stack trace on stderr would only be noise.
 */
function writeAll(stream: { writeSync(p: Uint8Array): number }, text: string): void {
  const bytes = enc.encode(text);
  try {
    for (let off = 0; off < bytes.length;) off += stream.writeSync(bytes.subarray(off));
  } catch (e) {
    if (e instanceof Deno.errors.BrokenPipe) Deno.exit(0);
    throw e;
  }
}

async function main(argv: string[]): Promise<number> {
  mark("main");
  if (argv[0] === "__window") {
    // Internal: the native desktop window's own process (started by the server).
    const { windowChildMain } = await import("./server/window/native/child.ts");
    return await windowChildMain();
  }
  const parsed = parseCli(argv);
  if ("error" in parsed) {
    console.error(`reinagent: ${parsed.error}\n\n${USAGE}`);
    return 2;
  }
  const cmd = parsed.command;
  if (cmd.kind === "help") {
    console.log(USAGE);
    return 0;
  }
  if (cmd.kind === "version") {
    console.log(`reinagent ${VERSION}`);
    return 0;
  }
  if (cmd.kind === "doctor") {
    const { runDoctor } = await import("./server/cli/doctor.ts");
    return await runDoctor(resolveHome(cmd.home), console.log);
  }
  if (cmd.kind === "run") {
    const { runCommand } = await import("./server/cli/run_cmd.ts");
    return await runCommand(cmd, resolveHome(cmd.home), {
      text: (s) => writeAll(Deno.stdout, s),
      // Straight to the stream: console.error formats its arguments first.
      note: (s) => writeAll(Deno.stderr, `${s}\n`),
      json: (o) => writeAll(Deno.stdout, JSON.stringify(o) + "\n"),
    });
  }
  if (cmd.kind === "tasks") {
    const { tasksCommand } = await import("./server/cli/tasks_cmd.ts");
    return await tasksCommand(cmd, resolveHome(cmd.home), {
      line: (s) => console.log(s),
      err: (s) => console.error(s),
    });
  }
  if (
    cmd.kind === "export" || cmd.kind === "import" || cmd.kind === "backup" ||
    cmd.kind === "restore"
  ) {
    const { carryCommand } = await import("./server/cli/carry_cmd.ts");
    return await carryCommand(cmd, resolveHome(cmd.home), {
      line: (s) => console.log(s),
      err: (s) => console.error(s),
      write: (s) => writeAll(Deno.stdout, s),
    });
  }
  if (cmd.kind === "automations") {
    const { automationsCommand } = await import("./server/cli/automations_cmd.ts");
    return await automationsCommand(cmd, resolveHome(cmd.home), {
      line: (s) => console.log(s),
      err: (s) => console.error(s),
    });
  }
  if (cmd.kind === "memory") {
    const { memoryCommand } = await import("./server/cli/memory_cmd.ts");
    return await memoryCommand(cmd, resolveHome(cmd.home), {
      line: (s) => console.log(s),
      err: (s) => console.error(s),
    });
  }
  if (cmd.kind === "hooks") {
    const { hooksCommand } = await import("./server/cli/hooks_cmd.ts");
    return await hooksCommand(cmd, resolveHome(cmd.home), {
      line: (s) => console.log(s),
      err: (s) => console.error(s),
    });
  }
  if (cmd.kind === "update") {
    const { updateCommand } = await import("./server/cli/update_cmd.ts");
    return await updateCommand(cmd, resolveHome(cmd.home), {
      line: (s) => console.log(s),
      err: (s) => console.error(s),
    });
  }
  if (cmd.kind === "plugins") {
    const { pluginsCommand } = await import("./server/cli/plugins_cmd.ts");
    return await pluginsCommand(cmd, resolveHome(cmd.home), {
      line: (s) => console.log(s),
      err: (s) => console.error(s),
    });
  }
  if (cmd.kind === "acp") {
    const { acpCommand } = await import("./server/cli/acp_cmd.ts");
    return await acpCommand(resolveHome(cmd.home), (s) => console.error(s));
  }
  if (cmd.kind === "mcp-serve") {
    const { mcpServeCommand } = await import("./server/cli/mcp_serve_cmd.ts");
    return await mcpServeCommand(resolveHome(cmd.home), (s) => console.error(s));
  }
  if (cmd.kind === "mcp") {
    const { mcpCommand } = await import("./server/cli/mcp_cmd.ts");
    return await mcpCommand(cmd, { out: (s) => console.log(s), err: (s) => console.error(s) });
  }
  if (cmd.kind === "skills") {
    const { skillsCommand } = await import("./server/cli/skills_cmd.ts");
    return await skillsCommand(cmd, { out: (s) => console.log(s), err: (s) => console.error(s) });
  }
  if (cmd.kind === "providers" || cmd.kind === "models") {
    const { runCatalogCommand } = await import("./server/cli/providers_cmd.ts");
    return await runCatalogCommand(cmd);
  }

  return await serverCommand(cmd);
}

/**
 * `reinagent` / `reinagent serve`: one server per data dir. A second start hands over
 * to the running one (a window opened there, its URL printed) and exits 0 without
 * opening the database; the first's instance file and live approvals stay untouched.
 */
async function serverCommand(cmd: ServerCommand): Promise<number> {
  const home = resolveHome(cmd.home);
  const claim = await claimHome(home, "server");
  if (claim.kind === "busy") {
    console.error(`reinagent: ${claim.message}`);
    return 1;
  }
  if (claim.kind === "running") return await handOver(cmd, claim.file, claim.info);
  const lock = claim.lock;
  if (lock.tookOverFrom) {
    console.log(
      `  took over the data dir from pid ${lock.tookOverFrom.pid}, which ended without closing`,
    );
  }
  const tls = cmd.tlsCert && cmd.tlsKey
    ? { cert: await Deno.readTextFile(cmd.tlsCert), key: await Deno.readTextFile(cmd.tlsKey) }
    : undefined;
  // Loaded after the claim: a hand-over never pays for the server's modules.
  const [{ startApp }, { openWindow }, { WindowSupervisor }] = await Promise.all([
    import("./server/app.ts"),
    import("./server/window/open.ts"),
    import("./server/window/supervisor.ts"),
  ]);
  const app = await startApp({ home, host: cmd.host, port: cmd.port, tls, lock, mode: cmd.kind });
  console.log(`ReinAgent ${VERSION} is running at ${app.url}`);
  console.log(`  data: ${app.home}`);
  if (!app.store.ok) console.log(`  ⚠ database unavailable: ${app.store.error}`);

  const stop = async () => {
    windows.closeAll();
    await app.close();
    Deno.exit(0);
  };
  const windows = new WindowSupervisor({
    open: () => openWindow(app.url, app.home, (s) => console.log(s)),
    activeRuns: () => app.runs?.activeCount ?? 0,
    // Only the desktop mode ends with its window; `serve` and `--keep-running` stay.
    exitWhenClosed: cmd.kind === "window" && !cmd.noOpen && !cmd.keepRunning,
    url: () => app.url,
    log: (s) => console.log(s),
    stop: () => void stop(),
  });
  app.windows = { open: () => windows.openWindow(), count: () => windows.openWindows };

  if (cmd.kind === "serve") {
    const { isLoopbackHost, lanUrls, terminalQr } = await import("./server/cli/remote.ts");
    const urls = lanUrls(app, cmd.host ?? "127.0.0.1");
    for (const u of urls) console.log(`  on your network: ${u}`);
    const forPhone = urls[0] ?? (isLoopbackHost(cmd.host ?? "127.0.0.1") ? null : app.url);
    if (forPhone) {
      console.log(`\nScan to open on a phone (${forPhone.replace(/token=.*/, "token=…")}):\n`);
      console.log(terminalQr(forPhone));
    } else {
      // A QR code of 127.0.0.1 would open nothing on a phone.
      console.log(
        "\n  Only this computer can connect. For a phone on your network, start with " +
          "--host 0.0.0.0 (or put a reverse proxy or tunnel in front).",
      );
    }
  } else if (!cmd.noOpen) {
    const opened = await windows.openWindow();
    console.log(
      opened.opened
        ? `  window: ${opened.how}`
        : `  no window opened (${opened.reason}); open the URL above`,
    );
  }

  Deno.addSignalListener("SIGINT", stop);
  if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", stop);
  return -1; // keep running
}

/** The data dir already has a server: ask it for a window (`reinagent`), print its URL. */
async function handOver(cmd: ServerCommand, file: InstanceFile, info: InstanceInfo) {
  console.log(`ReinAgent is already running for this data dir (pid ${info.pid}) at ${info.url}`);
  if (cmd.kind === "window" && !cmd.noOpen) {
    const w = await requestWindow(file);
    console.log(
      w.opened
        ? `  window: opened by the running instance (${w.how})`
        : `  no window opened (${w.reason}); open the URL above`,
    );
  }
  const asked = [
    cmd.host && `--host ${cmd.host}`,
    cmd.port !== undefined && `--port ${cmd.port}`,
    cmd.tlsCert && "--tls-cert",
  ].filter(Boolean);
  if (asked.length) {
    console.log(
      `  (${asked.join(", ")} not applied: stop the running instance to start with them)`,
    );
  }
  return 0;
}

if (import.meta.main) {
  const code = await main(Deno.args).catch((e) => {
    console.error(`reinagent: ${(e as Error).message}`);
    return 1;
  });
  mark("exit");
  if (code >= 0) Deno.exit(code);
}
