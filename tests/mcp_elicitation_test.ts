/**
 * Elicitation: an MCP server asks the user a form during a tool call; every client gets
 * the question, the answer (accept with values, decline, cancel) goes back to the server.
 * Attacks: values that do not fit the form, an unknown question, a schema the protocol
 * forbids (nested), markup in the server's text (kept as text for the UI to escape).
 */
import { assert, assertEquals, assertMatch, assertThrows } from "./helpers/assert.ts";
import { McpManager } from "../server/mcp/manager.ts";
import { saveServers } from "../server/mcp/config.ts";
import { fieldsOf } from "../server/mcp/elicitation.ts";
import type { McpElicitation, McpEvent } from "../protocol/mcp_servers.ts";
import { startElicitServer } from "./helpers/mcp_elicit_server.ts";

const ctx = () => ({ workspace: "/tmp", signal: new AbortController().signal });

Deno.test("elicitation: fields of a schema; nested or odd schemas refused", () => {
  const f = fieldsOf({
    type: "object",
    properties: {
      a: { type: "string", enum: ["x", "y"], enumNames: ["X", "Y"] },
      b: { type: "boolean" },
    },
    required: ["a"],
  });
  assertEquals(f.map((x) => [x.name, x.type, x.required]), [["a", "string", true], [
    "b",
    "boolean",
    false,
  ]]);
  assertEquals(f[0].enumNames, ["X", "Y"]);
  assertThrows(() => fieldsOf({ type: "object", properties: { n: { type: "object" } } }));
  assertThrows(() => fieldsOf({ type: "array" }));
  assertThrows(() => fieldsOf({ type: "object", properties: { "a b<": { type: "string" } } }));
});

Deno.test(
  "elicitation: asked of every client, answered, declined, refused when wrong",
  async () => {
    const srv = startElicitServer();
    const home = await Deno.makeTempDir();
    await saveServers(home, [
      { id: "asker", enabled: true, transport: "http", command: "", args: [], url: srv.url },
    ]);
    const events: McpEvent[] = [];
    let onList: ((l: McpElicitation[]) => void) | null = null;
    const m = new McpManager({
      home,
      envPolicy: () => ({}),
      publish: (e) => {
        events.push(e);
        if (e.kind === "elicitations") onList?.(e.list);
      },
    });
    const next = () =>
      new Promise<McpElicitation>((r) => onList = (l) => l.length && r(l[l.length - 1]));
    try {
      const tools = await m.toolsForTurn();
      const ask = tools.find((t) => t.name === "mcp__asker__ask")!;
      let asked = next();
      let call = ask.execute({}, ctx());
      let q = await asked;
      assertEquals(q.server, "asker");
      assertEquals(q.message, "Who <b>are</b> you?", "kept as text; the UI escapes it");
      assertEquals(q.fields.map((f) => f.name), ["name", "team", "seats", "remote"]);
      assertEquals(m.elicitations.list().length, 1);

      // Attacks on the answer: not a field, wrong type, not a choice, missing required.
      for (
        const bad of [
          { name: "Ada", team: "red", admin: true },
          { name: "Ada", team: "red", seats: "3" },
          { name: "Ada", team: "green" },
          { team: "red" },
          { name: "Ada", team: "red", seats: 99 },
        ]
      ) assertThrows(() => m.elicitations.answer(q.id, "accept", bad));
      assertThrows(() => m.elicitations.answer("el-unknown", "accept", {}));
      m.elicitations.answer(q.id, "accept", { name: "Ada", team: "blue", seats: 3, remote: true });
      let r = await call;
      assertMatch(r.content, /"action":"accept"/);
      assertMatch(r.content, /"name":"Ada","team":"blue","seats":3,"remote":true/);
      assertEquals(m.elicitations.list(), []);
      assertThrows(() => m.elicitations.answer(q.id, "accept", {}), "answered once only");

      asked = next();
      call = ask.execute({}, ctx());
      q = await asked;
      m.elicitations.answer(q.id, "decline");
      r = await call;
      assertMatch(r.content, /"action":"decline"/);
      assert(!/"content"/.test(r.content));

      asked = next();
      call = ask.execute({}, ctx());
      q = await asked;
      m.elicitations.answer(q.id, "cancel");
      assertMatch((await call).content, /"action":"cancel"/);

      // A form the protocol forbids never reaches the user.
      const bad = await tools.find((t) => t.name === "mcp__asker__bad_form")!.execute({}, ctx());
      assertMatch(bad.content, /elicit failed/);
      assertEquals(m.elicitations.list(), []);
    } finally {
      await m.close();
      await srv.close();
    }
  },
);
