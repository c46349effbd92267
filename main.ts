/**
 * ReinAgent command line: parses arguments, picks a mode and boots the server.
 *
 *   reinagent                 server on 127.0.0.1 + a desktop window
 *   reinagent serve           headless server (for a VPS / phones)
 *   reinagent providers …     manage model providers; `models fetch` lists a provider's models
 *   reinagent tasks           every task with its state
 *   reinagent mcp serve       ReinAgent as an MCP server over stdio
 *   reinagent mcp …           the MCP servers the agent uses (add, list, remove, test)
 *   reinagent --version | --help
 */
import { parseCli, USAGE } from "./server/cli/args.ts";
import { startApp } from "./server/app.ts";
import { resolveHome } from "./server/home.ts";
import { VERSION } from "./server/version.ts";
import { lanUrls, terminalQr } from "./server/cli/remote.ts";
import { openWindow } from "./server/window/open.ts";

async function main(argv: string[]): Promise<number> {
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
    const enc = new TextEncoder();
    return await runCommand(cmd, resolveHome(cmd.home), {
      text: (s) => Deno.stdout.writeSync(enc.encode(s)),
      note: (s) => console.error(s),
      json: (o) => Deno.stdout.writeSync(enc.encode(JSON.stringify(o) + "\n")),
    });
  }
  if (cmd.kind === "tasks") {
    const { tasksCommand } = await import("./server/cli/tasks_cmd.ts");
    return await tasksCommand(cmd, resolveHome(cmd.home), {
      line: (s) => console.log(s),
      err: (s) => console.error(s),
    });
  }
  if (cmd.kind === "mcp-serve") {
    const { mcpServeCommand } = await import("./server/cli/mcp_serve_cmd.ts");
    return await mcpServeCommand(resolveHome(cmd.home), (s) => console.error(s));
  }
  if (cmd.kind === "mcp") {
    const { mcpCommand } = await import("./server/cli/mcp_cmd.ts");
    return await mcpCommand(cmd, { out: (s) => console.log(s), err: (s) => console.error(s) });
  }
  if (cmd.kind === "providers" || cmd.kind === "models") {
    const { runCatalogCommand } = await import("./server/cli/providers_cmd.ts");
    return await runCatalogCommand(cmd);
  }

  const tls = cmd.tlsCert && cmd.tlsKey
    ? { cert: await Deno.readTextFile(cmd.tlsCert), key: await Deno.readTextFile(cmd.tlsKey) }
    : undefined;
  const app = await startApp({ home: resolveHome(cmd.home), host: cmd.host, port: cmd.port, tls });
  console.log(`ReinAgent ${VERSION} is running at ${app.url}`);
  console.log(`  data: ${app.home}`);
  if (!app.store.ok) console.log(`  ⚠ database unavailable: ${app.store.error}`);

  if (cmd.kind === "serve") {
    const urls = lanUrls(app, cmd.host ?? "127.0.0.1");
    for (const u of urls) console.log(`  on your network: ${u}`);
    const forPhone = urls[0] ?? app.url;
    console.log(`\nScan to open on a phone (${forPhone.replace(/token=.*/, "token=…")}):\n`);
    console.log(terminalQr(forPhone));
  } else if (!cmd.noOpen) {
    const opened = await openWindow(app.url, app.home);
    console.log(
      opened.ok
        ? `  window: ${opened.how}`
        : `  no window opened (${opened.reason}); open the URL above`,
    );
    opened.exited?.then(() => {
      console.log("window closed; stopping");
      app.close().then(() => Deno.exit(0));
    });
  }

  const stop = async () => {
    await app.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", stop);
  return -1; // keep running
}

if (import.meta.main) {
  const code = await main(Deno.args).catch((e) => {
    console.error(`reinagent: ${(e as Error).message}`);
    return 1;
  });
  if (code >= 0) Deno.exit(code);
}
