/**
 * `reinagent providers …` / `reinagent models …` as a user runs them: a real process
 * on a temporary data dir, keys from stdin or an environment variable, never echoed.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { ROOT, RUN_FLAGS } from "./helpers/server.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { parseCli } from "../server/cli/args.ts";
import { Store } from "../store/store.ts";

const KEY = "sk-cli-SECRET-0011223344556677";

async function cli(args: string[], o: { stdin?: string; env?: Record<string, string> } = {}) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [...RUN_FLAGS, `${ROOT}main.ts`, ...args],
    stdin: o.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", ...o.env },
  }).spawn();
  if (o.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(o.stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test(
  "cli providers: add (stdin key) → list → fetch → enable → set-default → remove",
  async () => {
    const home = await Deno.makeTempDir({ prefix: "ra-cli-" });
    const mock = startMockLlm({ quiet: true });
    const h = ["--home", home];
    try {
      const add = await cli([
        "providers",
        "add",
        "mock",
        "--format",
        "openai-chat-completions",
        "--base-url",
        `${mock.base}/v1/`,
        "--name",
        "Mock LLM",
        "--api-key-stdin",
        "--model",
        "mock-echo",
        ...h,
      ], { stdin: `${KEY}\n` });
      assertEquals(add.code, 0, add.stderr);
      assertMatch(
        add.stdout,
        /Added provider mock "Mock LLM" \(openai-chat-completions, http:\/\/127/,
      );
      assertMatch(add.stdout, /key: stored \(sk-…6677\)/);

      const list = await cli(["providers", "list", "--json", ...h]);
      assertEquals(list.code, 0, list.stderr);
      const json = JSON.parse(list.stdout);
      assertEquals(json.providers.map((p: { id: string }) => p.id), ["demo", "mock"]);
      assertEquals(json.providers[1].baseUrl, mock.base, "stored without /v1");
      assertEquals([json.providers[1].apiKeyMasked, json.providers[1].hasKey], ["sk-…6677", true]);
      assertEquals(json.providers[1].apiKey, undefined);
      assertEquals(json.defaultModel, null);

      const fetched = await cli(["models", "fetch", "mock", ...h]);
      assertEquals(fetched.code, 0, fetched.stderr);
      assertMatch(fetched.stdout, /Fetched \d+ models from Mock LLM: \d+ new \(disabled/);
      assertMatch(fetched.stdout, /\+ mock-tools \(context 200K, max output 16K, vision yes/);
      assertMatch(fetched.stdout, /\+ mock-plain \(context not provided/);

      const disabled = await cli(["providers", "set-default", "mock", "mock-tools", ...h]);
      assertEquals(disabled.code, 2);
      assertMatch(disabled.stderr, /the model "mock-tools" is disabled/);
      assertEquals((await cli(["models", "enable", "mock", "mock-tools", ...h])).code, 0);
      const def = await cli(["providers", "set-default", "mock", "mock-tools", ...h]);
      assertEquals(def.code, 0, def.stderr);
      assertMatch(def.stdout, /Default model: mock\/mock-tools/);

      const text = await cli(["providers", "list", ...h]);
      assertMatch(
        text.stdout,
        /mock\s+Mock LLM\s+openai-chat-completions\s+http:\/\/127\S+\s+sk-…6677\s+yes\s+2\/\d+ enabled/,
      );
      assertMatch(text.stdout, /Default model: mock\/mock-tools/);

      const envAdd = await cli([
        "providers",
        "add",
        "env-one",
        "--format=anthropic-messages",
        "--base-url=https://api.example.com",
        "--api-key-env",
        "MY_TEST_KEY",
        ...h,
      ], { env: { MY_TEST_KEY: KEY } });
      assertEquals(envAdd.code, 0, envAdd.stderr);
      for (const r of [add, list, fetched, def, text, envAdd]) {
        assert(!r.stdout.includes(KEY) && !r.stderr.includes(KEY), "a key was printed");
      }

      const rm = await cli(["providers", "remove", "mock", ...h]);
      assertEquals(rm.code, 0, rm.stderr);
      assertMatch(rm.stdout, /default is now unset/);
      const after = JSON.parse((await cli(["providers", "list", "--json", ...h])).stdout);
      assertEquals(after.providers.map((p: { id: string }) => p.id), ["demo", "env-one"]);
      assertEquals(after.defaultModel, null);

      // What the CLI wrote is what the server reads: same database, full key stored.
      const store = new Store(`${home}/reinagent.db`);
      assertEquals(store.repos!.providers.get("env-one")!.apiKey, KEY);
      store.close();
    } finally {
      await mock.close();
      await Deno.remove(home, { recursive: true });
    }
  },
);

Deno.test(
  "cli providers: bad input exits 2, failures exit 1 with the real error",
  async () => {
    const home = await Deno.makeTempDir({ prefix: "ra-cli-" });
    const h = ["--home", home];
    try {
      const cases: [string[], RegExp][] = [
        [
          ["providers", "add", "x", "--format", "gpt", "--base-url", "http://a"],
          /--format must be one of openai-chat-completions/,
        ],
        [["providers", "add", "x", "--base-url", "http://a"], /--format is required/],
        [["providers", "add", "x", "--format", "openai-responses"], /--base-url is required/],
        [
          ["providers", "add", "Bad_Id", "--format", "openai-responses", "--base-url", "http://a"],
          /must be 1–40 characters/,
        ],
        [
          ["providers", "add", "x", "--format", "openai-responses", "--base-url", "ftp://a"],
          /must start with http/,
        ],
        [
          ["providers", "add", "demo", "--format", "openai-responses", "--base-url", "http://a"],
          /reserved/,
        ],
        [[
          "providers",
          "add",
          "x",
          "--format",
          "openai-responses",
          "--base-url",
          "http://a",
          "--api-key-env",
          "NOPE_NOT_SET",
        ], /NOPE_NOT_SET is empty or not set/],
        [[
          "providers",
          "add",
          "x",
          "--format",
          "openai-responses",
          "--base-url",
          "http://a",
          "--api-key-env",
          "A",
          "--api-key-stdin",
        ], /either --api-key-env or --api-key-stdin/],
        [["providers", "frob"], /unknown action "providers frob"/],
        [["providers", "remove"], /missing ID/],
        [["providers", "set-default", "x"], /missing MODEL_ID/],
        [["models", "fetch", "a", "b"], /unexpected argument "b"/],
        [["providers", "list", "--bogus"], /unknown option "--bogus"/],
        [["providers", "remove", "demo"], /Demo provider is read-only/],
      ];
      for (const [args, re] of cases) {
        const r = await cli([...args, ...h]);
        assertEquals(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
        assertMatch(r.stderr, re, args.join(" "));
      }
      const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const port = (l.addr as Deno.NetAddr).port;
      l.close();
      const add = await cli([
        "providers",
        "add",
        "down",
        "--format",
        "openai-chat-completions",
        "--base-url",
        `http://127.0.0.1:${port}`,
        ...h,
      ]);
      assertEquals(add.code, 0, add.stderr);
      const fetch = await cli(["models", "fetch", "down", ...h]);
      assertEquals(fetch.code, 1);
      assertMatch(fetch.stderr, /fetching models failed: network error: .*127\.0\.0\.1/);
      const gone = await cli(["providers", "remove", "ghost", ...h]);
      assertEquals(gone.code, 1);
      assertMatch(gone.stderr, /no provider with id "ghost"/);
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
);

Deno.test("cli parser: subcommand table keeps the server forms", () => {
  assertEquals(parseCli(["providers", "list", "--json", "--home=/h"]), {
    command: { kind: "providers", action: "list", json: true, home: "/h" },
  });
  assertEquals(parseCli(["models", "enable", "p", "m"]), {
    command: { kind: "models", action: "enable", id: "p", modelId: "m", home: undefined },
  });
  assertEquals(parseCli(["serve", "--port", "1"]), {
    command: { kind: "serve", noOpen: false, port: 1 },
  });
  assertEquals(parseCli(["--port", "1"]), { command: { kind: "window", noOpen: false, port: 1 } });
  assertEquals(parseCli(["toString"]), { error: 'unknown command "toString"' });
});
