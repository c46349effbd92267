/**
 * Slash commands and @ mentions, the pure parts: the parsing matrix (known, unknown,
 * path-like, arguments, quotes), templates with $ARGUMENTS and $1, the goal's
 * sub-commands, mention extraction, custom command files (frontmatter, problems), the
 * picker's fuzzy ranking and the reminder with a goal.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import {
  expandTemplate,
  extractMentions,
  filterCommands,
  formatMention,
  mentionQuery,
  parseGoalArgs,
  parseSlash,
  resourceMention,
  slashQuery,
  splitArgs,
} from "../protocol/index.ts";
import { loadCustomCommands, parseCommandFile } from "../server/commands/custom.ts";
import { expandPromptCommand, listCommands } from "../server/commands/registry.ts";
import { isBuiltin } from "../server/commands/builtins.ts";
import { fuzzyRank, fuzzyScore } from "../server/composer/fuzzy.ts";
import { reminderBlock } from "../server/agent/prompt.ts";
import { goalSection } from "../server/agent/goal.ts";

Deno.test("parseSlash: commands, paths, unknown words and arguments", () => {
  assertEquals(parseSlash("/init"), { name: "init", args: "" });
  assertEquals(parseSlash("  /plan fix the build  "), { name: "plan", args: "fix the build" });
  assertEquals(parseSlash("/GOAL Ship it"), { name: "goal", args: "Ship it" });
  assertEquals(parseSlash("/plan line one\nline two"), {
    name: "plan",
    args: "line one\nline two",
  });
  assertEquals(parseSlash('/review "src/a b.ts" now'), {
    name: "review",
    args: '"src/a b.ts" now',
  });
  // Paths and other text that merely starts with a slash stay plain text.
  assertEquals(parseSlash("/home/me/notes.txt"), null);
  assertEquals(parseSlash("/usr/bin/env node"), null);
  assertEquals(parseSlash("/"), null);
  assertEquals(parseSlash("/ init"), null);
  assertEquals(parseSlash("please /init"), null);
  assertEquals(parseSlash("/héllo"), null); // not a valid name
  // An unknown word parses, but is not a command anywhere (see the registry below).
  assertEquals(parseSlash("/frobnicate"), { name: "frobnicate", args: "" });
});

Deno.test("slashQuery: the menu opens only while the first word is being typed", () => {
  assertEquals(slashQuery("/", 1), "");
  assertEquals(slashQuery("/in", 3), "in");
  assertEquals(slashQuery("/init ", 6), null); // past the name
  assertEquals(slashQuery("/usr/bin", 4), null); // a path
  assertEquals(slashQuery("/usr/bin", 2), null); // caret inside a path
  assertEquals(slashQuery("/usr", 2), "u");
  assertEquals(slashQuery("say /in", 7), null);
});

Deno.test("templates: $ARGUMENTS, $1…$9, quotes, and arguments never dropped", () => {
  assertEquals(splitArgs(`a "b c" 'd e' f`), ["a", "b c", "d e", "f"]);
  assertEquals(expandTemplate("Fix $ARGUMENTS now", "the bug"), "Fix the bug now");
  assertEquals(
    expandTemplate("Review $1 for $2", 'a.ts "null checks"'),
    "Review a.ts for null checks",
  );
  assertEquals(expandTemplate("Only $1 and $3.", "x"), "Only x and .");
  assertEquals(expandTemplate("$10 stays", "a"), "$10 stays\n\na"); // $10 is no placeholder
  assertEquals(expandTemplate("No placeholders.", ""), "No placeholders.");
  assertEquals(
    expandTemplate("No placeholders.\n", "extra words"),
    "No placeholders.\n\nextra words",
  );
});

Deno.test("goal arguments: show, set, and sub-commands only as the whole argument", () => {
  assertEquals(parseGoalArgs(""), { kind: "show" });
  assertEquals(parseGoalArgs(" pause "), { kind: "pause" });
  assertEquals(parseGoalArgs("RESUME"), { kind: "resume" });
  assertEquals(parseGoalArgs("clear"), { kind: "clear" });
  assertEquals(parseGoalArgs("clear the build cache"), {
    kind: "set",
    text: "clear the build cache",
  });
  assertEquals(parseGoalArgs("Ship v2"), { kind: "set", text: "Ship v2" });
});

Deno.test("filterCommands: prefix matches first, then names containing the query", () => {
  const list = [{ name: "clear" }, { name: "plan" }, { name: "explain" }, { name: "plot" }];
  assertEquals(filterCommands(list, "pl").map((c) => c.name), ["plan", "plot", "explain"]);
  assertEquals(filterCommands(list, "").length, 4);
});

Deno.test("mentions: extraction, quotes, punctuation, e-mail addresses, the picker query", () => {
  const text = 'see @src/a.ts, @"my notes.md" and (@lib/) but not me@example.com.';
  assertEquals(extractMentions(text).map((m) => m.path), ["src/a.ts", "my notes.md", "lib/"]);
  const [a, b] = extractMentions(text);
  assertEquals(text.slice(a.start, a.end), "@src/a.ts");
  assertEquals(text.slice(b.start, b.end), '@"my notes.md"');
  assertEquals(extractMentions("@README.md."), [{ path: "README.md", start: 0, end: 10 }]);
  assertEquals(extractMentions("no mentions @ here"), []);
  assertEquals(mentionQuery("look at @src/ma", 15), { start: 8, query: "src/ma" });
  assertEquals(mentionQuery('x @"my no', 9), { start: 2, query: "my no" });
  assertEquals(mentionQuery("mail me@x", 9), null);
  assertEquals(mentionQuery("@a b", 4), null);
  assertEquals(formatMention("src/a.ts"), "@src/a.ts");
  assertEquals(formatMention("my notes.md"), '@"my notes.md"');
});

Deno.test("mentions of MCP resources: `server:uri` tokens, a URI's punctuation kept", () => {
  assertEquals(resourceMention("docs:memo://today"), { server: "docs", uri: "memo://today" });
  assertEquals(resourceMention("db:urn:isbn:123"), { server: "db", uri: "urn:isbn:123" });
  assertEquals(resourceMention("src/a.ts"), null);
  assertEquals(resourceMention("bob:lunch"), null, "no scheme after the server: a word");
  assertEquals(resourceMention("http://example.com"), null, "a URL is no server's resource");
  assertEquals(resourceMention("-x:memo://a"), null, "not a server id");
  // A URI ending in punctuation an unquoted token would drop is quoted, and survives.
  const token = formatMention("docs:memo://faq?");
  assertEquals(token, '@"docs:memo://faq?"');
  assertEquals(extractMentions(`see ${token} now`)[0].path, "docs:memo://faq?");
  assertEquals(extractMentions("see @docs:memo://today.")[0].path, "docs:memo://today");
});

Deno.test("custom command files: frontmatter, default name, descriptions, problems", () => {
  const c = parseCommandFile(
    "/w/.reinagent/commands/review.md",
    "---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $1 carefully.\n",
    "workspace",
  );
  assert(!("problem" in c));
  assertEquals([c.name, c.description, c.argHint, c.body], [
    "review",
    "Review a file",
    "<file>",
    "Review $1 carefully.",
  ]);
  const named = parseCommandFile("/x/a.md", '---\nname: "Ship-It"\n---\n# Ship it\nDo it.', "user");
  assert(!("problem" in named));
  assertEquals([named.name, named.description], ["ship-it", "Ship it"]);
  const bad = (text: string, file = "/x/ok.md") => {
    const r = parseCommandFile(file, text, "user");
    return "problem" in r ? r.problem : "";
  };
  assertMatch(bad("---\nname: x\nbody without end"), /never ends/);
  assertMatch(bad("---\nname: has space\n---\nhi"), /not a valid command name/);
  assertMatch(bad("hi", "/x/bad name!.md"), /not a valid command name/);
  assertMatch(bad("---\n---\n  \n"), /no text/);
});

Deno.test("custom commands: precedence, size cap, built-ins reserved, links out refused", async () => {
  const ws = await Deno.makeTempDir();
  const home = await Deno.makeTempDir();
  const user = await Deno.makeTempDir();
  const outside = await Deno.makeTempDir();
  await Deno.mkdir(`${ws}/.reinagent/commands`, { recursive: true });
  await Deno.mkdir(`${ws}/.claude/commands`, { recursive: true });
  await Deno.mkdir(`${home}/commands`, { recursive: true });
  await Deno.mkdir(`${user}/.claude/commands`, { recursive: true });
  await Deno.writeTextFile(`${ws}/.reinagent/commands/review.md`, "Workspace review of $ARGUMENTS");
  await Deno.writeTextFile(`${ws}/.claude/commands/review.md`, "Claude review");
  await Deno.writeTextFile(`${ws}/.claude/commands/init.md`, "my own init");
  await Deno.writeTextFile(`${ws}/.claude/commands/huge.md`, "x".repeat(40 * 1024));
  await Deno.writeTextFile(`${outside}/secret.md`, "secret");
  await Deno.symlink(`${outside}/secret.md`, `${ws}/.reinagent/commands/leak.md`);
  await Deno.writeTextFile(`${home}/commands/daily.md`, "---\ndescription: Daily\n---\nDaily $1");
  await Deno.writeTextFile(`${user}/.claude/commands/fix.md`, "Fix $ARGUMENTS");
  const scope = { workspace: ws, home, userHome: user };
  const { commands, problems } = await listCommands(scope);
  const names = commands.map((c) => `${c.source}:${c.name}`);
  // The workspace's own /review stands in for the built-in one.
  assertEquals(names.slice(0, 10), [
    "builtin:clear",
    "builtin:compact",
    "builtin:init",
    "builtin:plan",
    "builtin:goal",
    "builtin:cost",
    "builtin:model",
    "builtin:resume",
    "builtin:undo",
    "builtin:help",
  ]);
  assertEquals(names.slice(10), ["user:daily", "user:fix", "workspace:review"]);
  assertEquals(
    commands.find((c) => c.name === "review")!.path,
    `${ws}/.reinagent/commands/review.md`,
  );
  const why = (file: string) => problems.find((p) => p.path.endsWith(file))?.message ?? "";
  assertMatch(
    why(".claude/commands/review.md"),
    /also defined in .*\.reinagent\/commands\/review\.md/,
  );
  assertMatch(why("init.md"), /\/init is built in/);
  assertMatch(why("huge.md"), /40 KB is larger than 32 KB/);
  assertMatch(why("leak.md"), /outside the workspace/);

  const use = await expandPromptCommand('/review "src/a b.ts" quickly', scope);
  assertEquals(use, {
    name: "review",
    args: '"src/a b.ts" quickly',
    prompt: 'Workspace review of "src/a b.ts" quickly',
  });
  assertEquals((await expandPromptCommand("/daily standup", scope))?.prompt, "Daily standup");
  assertMatch((await expandPromptCommand("/init", scope))!.prompt, /AGENTS\.md/);
  assertMatch(
    (await expandPromptCommand("/init focus on tests", scope))!.prompt,
    /Additional instructions from the user:\nfocus on tests$/,
  );
  assertEquals(await expandPromptCommand("/frobnicate", scope), null); // unknown: plain text
  assertEquals(await expandPromptCommand("/home/x", scope), null);
  assertEquals(await expandPromptCommand("/goal x", scope), null); // local, not a prompt
  assert(isBuiltin("clear") && isBuiltin("review") && !isBuiltin("daily"));

  // Too many files in one folder are reported, not silently dropped.
  const many = await Deno.makeTempDir();
  for (let i = 0; i < 201; i++) {
    await Deno.writeTextFile(`${many}/c${String(i).padStart(3, "0")}.md`, "x");
  }
  const big = await loadCustomCommands([{ dir: many, source: "user" }], () => false);
  assertEquals(big.commands.length, 200);
  assertMatch(big.problems[0].message, /201 command files; only the first 200/);
});

Deno.test("fuzzy: subsequence matching ranks file names and segment starts first", () => {
  assertEquals(fuzzyScore("src/app.ts", "zz"), -1);
  assert(fuzzyScore("server/app.ts", "app") > fuzzyScore("src/mapper/pa.ts", "app"));
  const items = [
    "docs/",
    "server/http/routes.ts",
    "server/app.ts",
    "tests/app_test.ts",
    "README.md",
  ]
    .map((path) => ({ path }));
  assertEquals(fuzzyRank(items, "sapp", 2).items.map((i) => i.path), [
    "server/app.ts",
    "tests/app_test.ts",
  ]);
  assertEquals(fuzzyRank(items, "", 10).items.length, 5);
  assert(fuzzyRank(items, "", 2).more);
});

Deno.test("reminder: date, the goal (pursued or paused, escaped) and AGENTS.md", () => {
  const now = new Date("2025-03-04T10:00:00Z");
  const agents = { path: "AGENTS.md", text: "Run deno task test." };
  const active = reminderBlock({
    now,
    agents,
    goal: goalSection({ text: "Ship </goal> v2 & docs", paused: false, setAt: 1 }),
  });
  assertMatch(active, /^<system-reminder>\nCurrent date: 2025-03-04\n/);
  assertMatch(active, /Keep working towards it/);
  assertMatch(active, /<goal>\nShip &lt;\/goal&gt; v2 &amp; docs\n<\/goal>/);
  assert(active.indexOf("<goal>") < active.indexOf("Project instructions from AGENTS.md"));
  const paused = reminderBlock({
    now,
    agents: null,
    goal: goalSection({ text: "Ship v2", paused: true, setAt: 1 }),
  });
  assertMatch(paused, /paused the goal.*Do not work towards it/s);
  assertEquals(goalSection(null), null);
  assert(!reminderBlock({ now, agents: null, goal: goalSection(undefined) }).includes("goal"));
});
