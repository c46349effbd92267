/** Permission rules by pattern: the shell splitter, the matchers and how verdicts combine. */
import { assertEquals } from "./helpers/assert.ts";
import {
  judgeRules,
  parseRule,
  pathMatches,
  type ScopedRule,
  splitCommand,
  suggestCommandRule,
} from "../protocol/permission_rules.ts";

const r = (rule: string, policy: ScopedRule["policy"], scope: ScopedRule["scope"] = "global") => ({
  rule,
  policy,
  scope,
});
const cmd = (command: string) => ({ kind: "command" as const, command });
const verdict = (rules: ScopedRule[], tool: string, command: string) =>
  judgeRules(rules, tool, cmd(command))?.policy ?? null;

Deno.test("splitCommand: operators, quotes, substitutions, subshells and sh -c are parts", () => {
  assertEquals(splitCommand("npm test && git push origin main"), [
    ["npm", "test"],
    ["git", "push", "origin", "main"],
  ]);
  assertEquals(splitCommand("a; b | c || d & e\nf"), [["a"], ["b"], ["c"], ["d"], ["e"], ["f"]]);
  assertEquals(splitCommand(`echo "a && b" 'c;d' e\\ f`), [["echo", "a && b", "c;d", "e f"]]);
  assertEquals(splitCommand("echo $(git push) `rm -rf x`"), [
    ["git", "push"],
    ["rm", "-rf", "x"],
    ["echo", "$(…)", "$(…)"],
  ]);
  assertEquals(splitCommand('echo "now $(git push -f)"'), [["git", "push", "-f"], [
    "echo",
    "now $(…)",
  ]]);
  assertEquals(splitCommand("(cd x && git push)"), [["cd", "x"], ["git", "push"]]);
  assertEquals(splitCommand("bash -c 'git push'"), [["bash", "-c", "git push"], ["git", "push"]]);
  assertEquals(splitCommand("ls 2>&1 >/dev/null &> log"), [[
    "ls",
    "2>&1",
    ">/dev/null",
    "&>",
    "log",
  ]]);
  assertEquals(splitCommand("ls # && git push"), [["ls"]]);
});

Deno.test("rules: a deny beats an allow; compound commands are judged part by part", () => {
  const rules = [
    r("exec_command(npm test *)", "allow", "task"),
    r("exec_command(git *)", "allow", "project"),
    r("exec_command(git push *)", "deny"),
  ];
  assertEquals(verdict(rules, "exec_command", "npm test"), "allow");
  assertEquals(verdict(rules, "exec_command", "npm test --watch"), "allow");
  assertEquals(verdict(rules, "exec_command", "git status"), "allow");
  assertEquals(verdict(rules, "exec_command", "git push origin main"), "deny", "deny beats allow");
  assertEquals(verdict(rules, "exec_command", "npm test && git push"), "deny");
  assertEquals(verdict(rules, "exec_command", "npm test; git push --force"), "deny");
  assertEquals(verdict(rules, "exec_command", "npm test | tee $(git push)"), "deny");
  assertEquals(verdict(rules, "exec_command", "npm test `git push`"), "deny");
  assertEquals(verdict(rules, "exec_command", "sh -c 'git push'"), "deny");
  assertEquals(verdict(rules, "exec_command", "sudo env GIT_DIR=x git push"), "deny");
  assertEquals(verdict(rules, "exec_command", "/usr/bin/git push"), "deny");
  // An allow names the program as written: a look-alike elsewhere is not allowed.
  assertEquals(verdict(rules, "exec_command", "/tmp/x/git status"), null);
  assertEquals(verdict(rules, "exec_command", "FOO=1 git  push"), "deny");
  // An allow covers only commands whose every part is allowed.
  assertEquals(verdict(rules, "exec_command", "npm test && rm -rf /"), null);
  assertEquals(verdict(rules, "exec_command", "npm testing"), null, "whole words only");
  assertEquals(verdict(rules, "exec_command", "echo npm test"), null, "never by a later word");
  // A whole-tool deny and an ask.
  assertEquals(verdict([...rules, r("exec_command", "deny")], "exec_command", "npm test"), "deny");
  assertEquals(
    verdict([...rules, r("exec_command(npm *)", "ask")], "exec_command", "npm test"),
    "ask",
  );
  assertEquals(verdict(rules, "background_bash", "npm test"), null, "an allow names its tool");
  assertEquals(verdict(rules, "background_bash", "git push"), "deny", "a deny covers the family");
});

Deno.test("rules: path globs and domains", () => {
  assertEquals(pathMatches("src/**", "src/a/b.ts"), true);
  assertEquals(pathMatches("src/**", "srcx/a.ts"), false);
  assertEquals(pathMatches("**/*.md", "README.md"), true);
  assertEquals(pathMatches("**/*.md", "docs/x/y.md"), true);
  assertEquals(pathMatches("*.ts", "a/b.ts"), false);
  assertEquals(pathMatches("src", "src/a.ts"), true, "a plain folder names what is in it");
  const rules = [r("write_file(src/**)", "allow"), r("write_file(src/secret/**)", "deny")];
  const paths = (...p: string[]) => ({ kind: "paths" as const, paths: p });
  assertEquals(judgeRules(rules, "write_file", paths("src/a.ts"))?.policy, "allow");
  assertEquals(judgeRules(rules, "write_file", paths("src/secret/k"))?.policy, "deny");
  assertEquals(judgeRules(rules, "write_file", paths("lib/a.ts")), null);
  // A deny on write_file also holds for the other ways of changing files.
  for (const tool of ["edit_file", "apply_patch", "delete_file"]) {
    assertEquals(judgeRules(rules, tool, paths("src/secret/k"))?.policy, "deny", tool);
    assertEquals(judgeRules(rules, tool, paths("src/a.ts")), null, `${tool}: allow stays`);
  }
  assertEquals(judgeRules(rules, "read_file", paths("src/secret/k")), null);
  const patch = [r("apply_patch(src/**)", "allow")];
  assertEquals(judgeRules(patch, "apply_patch", paths("src/a", "lib/b")), null, "every path");
  const web = [r("webfetch(domain:docs.deno.com)", "allow")];
  const url = (u: string) => ({ kind: "url" as const, url: u });
  assertEquals(judgeRules(web, "webfetch", url("https://docs.deno.com/x"))?.policy, "allow");
  assertEquals(judgeRules(web, "webfetch", url("https://sub.docs.deno.com/"))?.policy, "allow");
  assertEquals(judgeRules(web, "webfetch", url("https://docs.deno.com.evil.io/")), null);
  assertEquals(judgeRules(web, "webfetch", url("https://evil.io/?docs.deno.com")), null);
});

Deno.test("rules: parsing and the prefix Always allow offers", () => {
  assertEquals(parseRule("exec_command(npm test *)"), {
    tool: "exec_command",
    pattern: "npm test *",
  });
  assertEquals(parseRule("write_file"), { tool: "write_file", pattern: null });
  assertEquals(parseRule("write_file()"), null);
  assertEquals(parseRule("bad rule"), null);
  assertEquals(
    suggestCommandRule("exec_command", "npm test -- --grep x"),
    "exec_command(npm test *)",
  );
  assertEquals(
    suggestCommandRule("exec_command", "git push origin main"),
    "exec_command(git push *)",
  );
  assertEquals(suggestCommandRule("exec_command", "ls -la"), "exec_command(ls *)");
  assertEquals(suggestCommandRule("exec_command", "./build.sh"), "exec_command(./build.sh *)");
  assertEquals(suggestCommandRule("exec_command", "npm test && git push"), null);
});
