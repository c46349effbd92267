/**
 * The workspace is the model's to write: a FIFO where a turn's start reads a file (AGENTS.md)
 * may keep that read waiting, but never the server's own thread. Run in a child process, so
 * that a thread blocked by a regression fails this test instead of hanging the suite.
 */
import { assert, assertEquals } from "./helpers/assert.ts";

const CHILD = `
import { readAgentsFile } from ${
  JSON.stringify(new URL("../server/agent/prompt.ts", import.meta.url).href)
};
const ws = Deno.args[0];
const read = readAgentsFile(ws);
// A synchronous read would block before this timer could fire.
await new Promise((r) => setTimeout(r, 20));
console.log("ticked");
// A writer that closes at once ends the read (an empty file): nothing is left waiting.
(await Deno.open(ws + "/AGENTS.md", { write: true })).close();
console.log(JSON.stringify(await read));
`;

Deno.test("a FIFO named AGENTS.md waits on a pool thread; the server's thread goes on", async () => {
  const ws = await Deno.makeTempDir({ prefix: "ra-fifo-" });
  try {
    const mk = await new Deno.Command("mkfifo", { args: [`${ws}/AGENTS.md`] }).output();
    assert(mk.success, "mkfifo");
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", "--no-config", CHILD, ws],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    const out = await child.output();
    clearTimeout(timer);
    const text = new TextDecoder().decode(out.stdout).trim().split("\n");
    assertEquals(text[0], "ticked", new TextDecoder().decode(out.stderr));
    assertEquals(JSON.parse(text[1]), { path: "AGENTS.md", text: "" });
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});
