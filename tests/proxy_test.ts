/**
 * The outbound proxy with a tiny local proxy that records what it gets and
 * forwards to the mock LLM: a provider request to a non-loopback host goes through it
 * (the run completes), loopback hosts (the mock LLM itself) go direct unless asked, the
 * no-proxy list and NO_PROXY are respected; the setting's file is validated and a
 * damaged one is never overwritten.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { join } from "node:path";
import { env } from "./helpers/agent_env.ts";
import {
  configureProxy,
  matchesNoProxy,
  NO_PROXY_SETTINGS,
  proxyUrlProblem,
  usesProxy,
} from "../tools/net/proxy.ts";
import {
  proxyView,
  readProxyFile,
  saveProxySettings,
  unmaskPassword,
} from "../server/net/proxy_config.ts";

/** A forward proxy for plain HTTP that records the requests and sends them to `target`. */
function recordingProxy(target: string) {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    seen.push(`${req.method} ${req.url}`);
    const u = new URL(req.url);
    const to = new URL(u.pathname + u.search, target);
    const headers = new Headers(req.headers);
    headers.delete("host");
    return await fetch(to, { method: req.method, headers, body: req.body });
  });
  return { seen, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("no-proxy matching and which hosts use the proxy", () => {
  try {
    assert(matchesNoProxy("api.corp.example", ["corp.example"]));
    assert(matchesNoProxy("api.corp.example", ["*.corp.example"]));
    assert(matchesNoProxy("api.corp.example", [".corp.example"]));
    assert(!matchesNoProxy("notcorp.example", ["corp.example"]));
    assert(matchesNoProxy("10.0.0.5", ["10.0.0.5"]));
    assert(matchesNoProxy("anything", ["*"]));
    configureProxy({
      url: "http://127.0.0.1:1",
      noProxy: ["internal.test"],
      loopback: false,
      system: false,
    });
    assert(usesProxy("https://api.openai.com/v1/chat"));
    assert(!usesProxy("http://127.0.0.1:8080/v1"), "loopback goes direct");
    assert(!usesProxy("http://localhost:8080/v1"));
    assert(!usesProxy("http://[::1]:8080/v1"));
    assert(!usesProxy("http://git.internal.test/x"), "no-proxy list");
    configureProxy({ url: "http://127.0.0.1:1", noProxy: [], loopback: true, system: false });
    assert(usesProxy("http://127.0.0.1:8080/v1"), "loopback when asked");
    assertMatch(proxyUrlProblem("socks5://x:1")!, /http:\/\/ or https:\/\//);
    assertMatch(proxyUrlProblem("nonsense")!, /not a URL/);
    assertEquals(proxyUrlProblem("http://user:pw@proxy.corp:3128"), null);
  } finally {
    configureProxy(NO_PROXY_SETTINGS);
  }
});

Deno.test("provider requests go through the proxy; loopback and NO_PROXY hosts do not", async () => {
  const e = await env();
  const proxy = recordingProxy(e.mock.base);
  const oldNoProxy = Deno.env.get("NO_PROXY");
  try {
    const model = e.scenario({ turns: [{ text: "via the proxy" }, { text: "direct" }] });
    const repo = e.deps.store.repos!.providers;
    const direct = repo.get(model.providerId)!;
    // A host that is not loopback (it does not even resolve: only the proxy can reach it).
    const port = new URL(e.mock.base).port;
    repo.put({
      ...direct,
      baseUrl: direct.baseUrl.replace(/127\.0\.0\.1:\d+/, `llm.test:${port}`),
    });
    configureProxy({ url: proxy.url, noProxy: [], loopback: false, system: false });

    const run = async (text: string) => {
      const { task } = e.deps.tasks!.create({
        message: text,
        title: "proxy",
        options: { model, approval: "full" },
      });
      return await e.deps.runs!.start(task.id);
    };
    assertEquals((await run("hello"))?.kind, "done");
    assertEquals(proxy.seen.length, 1, proxy.seen.join("\n"));
    assertMatch(proxy.seen[0], /^POST http:\/\/llm\.test:\d+\/v1\/chat\/completions$/);

    // The mock LLM on 127.0.0.1 is never proxied (unless asked).
    repo.put(direct);
    assertEquals((await run("hello again"))?.kind, "done");
    assertEquals(proxy.seen.length, 1, "loopback went direct");

    // NO_PROXY from the environment: llm.test goes direct (and cannot be reached).
    Deno.env.set("NO_PROXY", "example.org,llm.test");
    assert(!usesProxy(`http://llm.test:${port}/v1/models`));
    Deno.env.delete("NO_PROXY");
    assert(usesProxy(`http://llm.test:${port}/v1/models`));
  } finally {
    configureProxy(NO_PROXY_SETTINGS);
    if (oldNoProxy === undefined) Deno.env.delete("NO_PROXY");
    else Deno.env.set("NO_PROXY", oldNoProxy);
    await proxy.close();
    await e.close();
  }
});

Deno.test("proxy.json: validated, applied, a damaged one reported and never overwritten", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-proxy-home-" });
  try {
    assertEquals((await proxyView(home)).url, null);
    await saveProxySettings(home, {
      url: "http://proxy.corp:3128",
      noProxy: ["corp"],
      loopback: false,
      system: false,
    });
    assertEquals((await proxyView(home)).url, "http://proxy.corp:3128");
    assert(usesProxy("https://api.anthropic.com/v1/messages"));
    assert(!usesProxy("https://git.corp/x"));
    let err = "";
    try {
      await saveProxySettings(home, {
        url: "ftp://nope",
        noProxy: [],
        loopback: false,
        system: false,
      });
    } catch (x) {
      err = (x as Error).message;
    }
    assertMatch(err, /http:\/\/ or https:\/\//);
    await Deno.writeTextFile(join(home, "proxy.json"), "{ broken");
    const r = await readProxyFile(home);
    assert(!r.ok);
    assertMatch((await proxyView(home)).fileError!, /damaged/);
    err = "";
    try {
      await saveProxySettings(home, { url: null, noProxy: [], loopback: false, system: false });
    } catch (x) {
      err = (x as Error).message;
    }
    assertMatch(err, /fix or remove it first/);
    assertEquals(await Deno.readTextFile(join(home, "proxy.json")), "{ broken");
  } finally {
    configureProxy(NO_PROXY_SETTINGS);
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("the environment's HTTP_PROXY: ignored unless the system proxy is on; never for loopback", async () => {
  const target = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("direct"),
  );
  const proxy = recordingProxy(`http://127.0.0.1:${target.addr.port}`);
  const helper = new URL("../tools/net/proxy.ts", import.meta.url).href;
  const port = target.addr.port;
  /** netFetch in a child with HTTP_PROXY set: [loopback answer, remote status or "failed"]. */
  const child = async (system: boolean) => {
    const code = `import { configureProxy, netFetch } from "${helper}";
      configureProxy({ url: null, noProxy: [], loopback: false, system: ${system} });
      const a = await (await netFetch("http://127.0.0.1:${port}/local")).text();
      const b = await netFetch("http://llm.test:${port}/remote").then((r) => r.status, () => "failed");
      console.log(JSON.stringify([a, b]));`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", code],
      env: { HTTP_PROXY: proxy.url, NO_PROXY: "" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert(out.success, new TextDecoder().decode(out.stderr));
    return JSON.parse(new TextDecoder().decode(out.stdout));
  };
  try {
    // Off (the default): the environment's proxy never takes over silently.
    assertEquals(await child(false), ["direct", "failed"]);
    assertEquals(proxy.seen, []);
    // On: the rest goes through it, loopback still direct.
    assertEquals(await child(true), ["direct", 200]);
    assertEquals(proxy.seen, [`GET http://llm.test:${port}/remote`]);
  } finally {
    await proxy.close();
    await target.shutdown();
  }
});

Deno.test("a proxy password is never shown back; the masked form keeps the saved one", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-proxy-home-" });
  try {
    const url = "http://me:s3cret@proxy.corp:3128";
    await saveProxySettings(home, { url, noProxy: [], loopback: false, system: false });
    const shown = (await proxyView(home)).url!;
    assertEquals(shown, "http://me:****@proxy.corp:3128");
    assertEquals(await unmaskPassword(home, shown), url);
    let err = "";
    try {
      await unmaskPassword(home, "http://me:****@other.corp:3128");
    } catch (e) {
      err = (e as Error).message;
    }
    assertMatch(err, /type the proxy password again/);
  } finally {
    configureProxy(NO_PROXY_SETTINGS);
    await Deno.remove(home, { recursive: true });
  }
});
