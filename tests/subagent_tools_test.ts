/** Sub-agent types and their tools: built-ins, user definitions, filtering, no recursion. */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { defaultTools } from "../tools/registry.ts";
import {
  BUILTIN_SUBAGENTS,
  definitionDirs,
  describeTypes,
  loadCatalog,
  parseDefinition,
} from "../server/agent/subagents/definitions.ts";
import { filterTools, PARENT_ONLY } from "../server/agent/subagents/tool_filter.ts";
import { agentTool, subagentOutput } from "../tools/agent.ts";

const all = defaultTools();
const builtin = (name: string) => BUILTIN_SUBAGENTS.find((d) => d.name === name)!;

Deno.test("explorer gets exactly the read-only tools: read, list, glob, grep", () => {
  const { registry, unknown } = filterTools(builtin("explorer"), all);
  assertEquals(registry.names().sort(), ["glob", "grep", "list_dir", "read_file"]);
  assertEquals(unknown, []);
  for (const t of registry.all()) assertEquals(t.kind, "read", t.name);
});

Deno.test("no sub-agent ever gets agent or subagent_output (no recursion)", () => {
  assert(all.get("agent") && all.get("subagent_output"), "the parent has both");
  const defs = [
    ...BUILTIN_SUBAGENTS,
    { tools: null }, // a user type without a tools line: everything a sub-agent may have
    { tools: ["agent", "subagent_output", "Task", "read_file"] },
  ];
  for (const def of defs) {
    const names = filterTools(def, all).registry.names();
    for (const banned of PARENT_ONLY) assert(!names.includes(banned), `${banned} in ${names}`);
  }
  const asked = filterTools({ tools: ["agent", "Task", "read_file"] }, all);
  assertEquals(asked.registry.names(), ["read_file"]);
  assertEquals(asked.unknown, [
    "agent (not available to sub-agents)",
    "Task (not available to sub-agents)",
  ]);
});

Deno.test("a user type's tools list is honoured (Claude Code names map) and unknown names are reported", () => {
  const { registry, unknown } = filterTools(
    { tools: ["Read", "Grep", "Bash", "write_file", "teleport", "NotebookEdit"] },
    all,
  );
  assertEquals(registry.names(), ["read_file", "grep", "write_file", "exec_command"]);
  assertEquals(unknown, ["teleport", "NotebookEdit"]);
  // Without a tools line: every tool but the parent-only ones.
  const every = filterTools({ tools: null }, all).registry.names();
  assertEquals(every.length, all.names().length - PARENT_ONLY.size);
});

Deno.test("definition files: frontmatter, lists, bad files reported, workspace wins over user", async () => {
  const ws = await Deno.makeTempDir();
  const home = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${ws}/.claude/agents`, { recursive: true });
    await Deno.mkdir(`${ws}/.reinagent/agents`, { recursive: true });
    await Deno.mkdir(`${home}/agents`, { recursive: true });
    await Deno.writeTextFile(
      `${ws}/.claude/agents/doc-writer.md`,
      "---\nname: doc-writer\ndescription: Writes docs\ntools:\n  - Read\n  - Write\nmodel: sonnet\n---\nYou write documentation.\n",
    );
    await Deno.writeTextFile(
      `${ws}/.reinagent/agents/explorer.md`,
      "---\ndescription: My explorer\ntools: read_file, grep\n---\nExplore my way.\n",
    );
    await Deno.writeTextFile(`${ws}/.reinagent/agents/broken.md`, "---\nname: x\nno end\n");
    await Deno.writeTextFile(`${ws}/.reinagent/agents/empty.md`, "---\nname: empty\n---\n\n");
    await Deno.writeTextFile(`${home}/agents/explorer.md`, "---\n---\nshadowed by the workspace\n");
    await Deno.writeTextFile(`${home}/agents/big.md`, "x".repeat(40_000));
    const cat = await loadCatalog(definitionDirs(ws, home, undefined));
    const doc = cat.get("doc-writer")!;
    assertEquals([doc.tools, doc.model, doc.prompt], [
      ["Read", "Write"],
      "sonnet",
      "You write documentation.",
    ]);
    assertEquals(cat.get("explorer")!.description, "My explorer"); // replaces the built-in
    assertEquals(cat.get("explorer")!.tools, ["read_file", "grep"]);
    assertEquals(cat.get("Explore")!.name, "explorer"); // Claude Code's name
    assertEquals(cat.get("general-purpose")!.name, "general");
    assertEquals(cat.get("fixer")!.name, "general");
    const problems = cat.problems.map((p) => `${p.path.split("/").at(-1)}: ${p.message}`);
    assertEquals(problems.length, 4, problems.join("\n"));
    assertMatch(problems.join("\n"), /broken\.md: the frontmatter starts with --- but never ends/);
    assertMatch(problems.join("\n"), /empty\.md: the definition has no instructions/);
    assertMatch(problems.join("\n"), /explorer\.md: "explorer" is also defined in/);
    assertMatch(problems.join("\n"), /big\.md: 40 KB is larger than 32 KB/);
    assertMatch(describeTypes(cat), /- doc-writer: Writes docs \(tools: Read, Write\)/);
    assertMatch(describeTypes(cat), /- code-reviewer: /);
  } finally {
    await Deno.remove(ws, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("parseDefinition: bad names refused, model inherit means the parent's", () => {
  const bad = parseDefinition("/x/Bad Name.md", "---\nname: Bad Name\n---\nhi\n", "user");
  assert("problem" in bad);
  const inherit = parseDefinition("/x/a.md", "---\nmodel: inherit\ntools: '*'\n---\nhi\n", "user");
  assert(!("problem" in inherit));
  assertEquals([inherit.name, inherit.model, inherit.tools], ["a", null, null]);
});

Deno.test("agent tools refuse inside a sub-agent (no control in the context) and check args", async () => {
  const ctx = { workspace: "/tmp", signal: new AbortController().signal };
  const r = await agentTool.execute(
    { description: "d", prompt: "p", subagent_type: "explorer" },
    ctx,
  );
  assertEquals(r.isError, true);
  assertMatch(r.content, /Sub-agents cannot start or read other sub-agents/);
  assertEquals((await subagentOutput.execute({ id: "x" }, ctx)).isError, true);
  const bad = await agentTool.execute({ description: "", prompt: "p" }, ctx);
  assertMatch(bad.content, /subagent_type/);
  const long = await agentTool.execute(
    { description: "x".repeat(201), prompt: "p", subagent_type: "explorer" },
    ctx,
  );
  assertEquals(long.isError, true);
});
