import { assert, assertEquals } from "./helpers/assert.ts";
import { isLoopback, Lockout } from "../server/http/lockout.ts";
import { Auth, readCookie } from "../server/http/auth.ts";
import { originAllowed } from "../server/http/routes.ts";

Deno.test("lockout: 5 failures block an address for 5 minutes, then it may try again", () => {
  let now = 0;
  const l = new Lockout(() => now);
  for (let i = 0; i < 4; i++) assertEquals(l.fail("203.0.113.7"), false);
  assertEquals(l.isBlocked("203.0.113.7"), false);
  assertEquals(l.fail("203.0.113.7"), true);
  assertEquals(l.isBlocked("203.0.113.7"), true);
  assertEquals(l.isBlocked("203.0.113.8"), false, "other addresses unaffected");
  now = 5 * 60_000 - 1;
  assertEquals(l.isBlocked("203.0.113.7"), true);
  now = 5 * 60_000;
  assertEquals(l.isBlocked("203.0.113.7"), false);
  assertEquals(l.fail("203.0.113.7"), false, "counting starts afresh");
});

Deno.test("lockout: loopback is exempt; a success clears the count", () => {
  const l = new Lockout(() => 0);
  for (let i = 0; i < 20; i++) l.fail("127.0.0.1");
  for (let i = 0; i < 20; i++) l.fail("::1");
  for (let i = 0; i < 20; i++) l.fail("::ffff:127.0.0.1");
  assertEquals(
    l.isBlocked("127.0.0.1") || l.isBlocked("::1") || l.isBlocked("::ffff:127.0.0.1"),
    false,
  );
  for (let i = 0; i < 4; i++) l.fail("198.51.100.1");
  l.succeed("198.51.100.1");
  for (let i = 0; i < 4; i++) l.fail("198.51.100.1");
  assertEquals(l.isBlocked("198.51.100.1"), false);
  assert(isLoopback("127.8.9.10") && !isLoopback("10.0.0.1"));
});

Deno.test("auth: token persisted 0600, verified by hash, reset invalidates", async () => {
  const home = await Deno.makeTempDir();
  const a = await Auth.load(home);
  const st = await Deno.stat(`${home}/token`);
  assertEquals(st.mode! & 0o777, 0o600);
  assert(a.verify(a.token));
  assert(!a.verify(a.token + "x"));
  assert(!a.verify(""));
  const again = await Auth.load(home);
  assertEquals(again.token, a.token, "same token after restart");
  let resets = 0;
  a.onReset(() => resets++);
  const old = a.token;
  await a.reset();
  assert(!a.verify(old));
  assert(a.verify(a.token));
  assertEquals(resets, 1);
});

Deno.test("auth: credentials from query, bearer, cookie (per-port name)", async () => {
  const a = await Auth.load(await Deno.makeTempDir());
  const u = new URL("http://h/x?token=q");
  assertEquals(a.credential(new Request(u), u, 1), { token: "q", via: "query" });
  const plain = new URL("http://h/x");
  const bearer = new Request(plain, { headers: { authorization: "Bearer b" } });
  assertEquals(a.credential(bearer, plain, 1), { token: "b", via: "bearer" });
  const cookie = new Request(plain, { headers: { cookie: "reinagent_2=c2; reinagent_1=c1" } });
  assertEquals(a.credential(cookie, plain, 1), { token: "c1", via: "cookie" });
  assertEquals(a.credential(new Request(plain), plain, 1), null);
  assertEquals(readCookie("a=1; b = x%20y", "b"), "x y");
});

Deno.test("websocket origin must match the host", () => {
  const req = (origin: string | null, host = "127.0.0.1:5000") =>
    new Request("http://127.0.0.1:5000/ws", { headers: { host, ...(origin ? { origin } : {}) } });
  assert(originAllowed(req(null)));
  assert(originAllowed(req("http://127.0.0.1:5000")));
  assert(!originAllowed(req("http://evil.example")));
  assert(!originAllowed(req("http://127.0.0.1:5001")));
  assert(!originAllowed(req("not a url")));
});
