/**
 * The window's child process (`reinagent __window`, or this file run directly from
 * source): reads its start message on stdin, opens the native window and reports on
 * stdout (see protocol.ts). It cannot open one: it says why and exits with
 * EXIT_CANNOT_OPEN, and the server goes on to the next backend.
 */
import { type ChildEvent, EXIT_CANNOT_OPEN, parseChildStart } from "./protocol.ts";

const enc = new TextEncoder();
const emit = (e: ChildEvent) => void Deno.stdout.writeSync(enc.encode(JSON.stringify(e) + "\n"));

async function readStart(): Promise<string> {
  const dec = new TextDecoder();
  let text = "";
  for await (const chunk of Deno.stdin.readable) {
    text += dec.decode(chunk, { stream: true });
    if (text.includes("\n") || text.length > 64_000) break;
  }
  return text.split("\n")[0];
}

export async function windowChildMain(): Promise<number> {
  const start = parseChildStart(await readStart());
  if ("error" in start) {
    emit({ event: "failed", reason: start.error });
    return EXIT_CANNOT_OPEN;
  }
  if (start.kind === "webview") {
    const { probeWebview, runWebviewWindow } = await import("./webview_window.ts");
    if (start.probe) return probed(probeWebview(start.lib!));
    return failed(await runWebviewWindow({ ...start, lib: start.lib!, emit }));
  }
  const { probeGtk, runGtkWindow } = await import("./gtk_window.ts");
  if (start.probe) return probed(probeGtk());
  return failed(await runGtkWindow({ ...start, emit }));
}

function probed(r: { ok: true; versions: string } | { ok: false; reason: string }) {
  if (!r.ok) return failed(r.reason);
  emit({ event: "probed", backend: r.versions });
  return 0;
}

function failed(reason: string): number {
  emit({ event: "failed", reason });
  return EXIT_CANNOT_OPEN;
}

if (import.meta.main) Deno.exit(await windowChildMain());
