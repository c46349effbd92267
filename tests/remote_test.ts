/**
 * Remote access (Settings → Remote access, protocol/remote.ts) and the installable app:
 * the client address behind a trusted proxy, the URLs and QR codes, the token reset
 * over the real WebSocket (every other client dropped with close code 4001, the caller
 * re-pairs through POST /api/pair), the trusted-proxy file (a damaged one left as it
 * is), lockout of the forwarded address, and the manifest, icons and service worker
 * served without a token with the right types and scope.
 */
import qrcode from "qrcode-generator";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { TestClient } from "./helpers/ws_client.ts";
import { Auth } from "../server/http/auth.ts";
import { EventHub, type HubClient } from "../server/sessions/hub.ts";
import {
  clientAddress,
  RemoteAccess,
  remoteSettingsPath,
  requestHost,
} from "../server/sessions/remote_access.ts";
import { qrCode } from "../server/sessions/qr_code.ts";
import { TOKEN_RESET_CLOSE } from "../protocol/index.ts";
import { shownUrl, tokenFromLink } from "../ui/state/remote_model.js";

/** The first non-loopback IPv4 address of this machine (what a phone would use). */
const LAN = Deno.networkInterfaces().find((i) =>
  i.family === "IPv4" && !i.address.startsWith("127.")
)?.address;

Deno.test("client address: X-Forwarded-For only when trusted, only from loopback, last entry", () => {
  assertEquals(clientAddress("127.0.0.1", "203.0.113.5", false), "127.0.0.1", "switch off");
  assertEquals(clientAddress("127.0.0.1", "203.0.113.5", true), "203.0.113.5");
  assertEquals(clientAddress("::1", "10.0.0.1, 203.0.113.5", true), "203.0.113.5", "proxy's entry");
  assertEquals(clientAddress("::ffff:127.0.0.1", " 2001:db8::7 ", true), "2001:db8::7");
  assertEquals(clientAddress("192.0.2.9", "203.0.113.5", true), "192.0.2.9", "not from a proxy");
  assertEquals(clientAddress("127.0.0.1", "<script>", true), "127.0.0.1", "garbage ignored");
  assertEquals(clientAddress("127.0.0.1", null, true), "127.0.0.1");
  assertEquals(clientAddress("127.0.0.1", "1".repeat(100_000), true), "127.0.0.1", "bounded");
});

Deno.test("request host: X-Forwarded-Host (first entry) only when trusted and from loopback", () => {
  const h = "127.0.0.1:4567";
  assertEquals(requestHost("127.0.0.1", h, "agent.example.com", false), h, "switch off");
  assertEquals(requestHost("127.0.0.1", h, "agent.example.com, inner", true), "agent.example.com");
  assertEquals(requestHost("::1", h, "box.tail1.ts.net:443", true), "box.tail1.ts.net:443");
  assertEquals(requestHost("192.0.2.9", h, "agent.example.com", true), h, "not from a proxy");
  assertEquals(requestHost("127.0.0.1", h, "evil/ path", true), h, "garbage ignored");
  assertEquals(requestHost("127.0.0.1", h, "[2001:db8::1]:8443", true), "[2001:db8::1]:8443");
});

Deno.test("QR code path: one unit square per dark module inside a 2-module quiet zone", () => {
  const text = "http://192.0.2.2:4567/?token=abcdefghijklmnopqrstuvwxyz";
  const qr = qrCode(text);
  const ref = qrcode(0, "L");
  ref.addData(text);
  ref.make();
  const n = ref.getModuleCount();
  assertEquals(qr.size, n + 4);
  let dark = 0;
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (ref.isDark(r, c)) dark++;
  assertEquals(qr.path.match(/M/g)?.length, dark);
  assert(qr.path.startsWith("M2 2h1v1h-1z"), "the finder pattern's corner module is dark");
});

function fakeClient(id: string, closes: [string, number][]): HubClient {
  return {
    id,
    topics: new Set(),
    since: 1000,
    info: { kind: "phone", browser: "Chrome", os: "Android", ip: "192.0.2.50" },
    deliver() {},
    disconnect: (code) => void closes.push([id, code]),
  };
}

Deno.test("remote access: URLs per address, clients, reset drops every other client", async () => {
  const home = await Deno.makeTempDir();
  const auth = await Auth.load(home);
  const hub = new EventHub();
  const local = await RemoteAccess.load({
    home,
    auth: await Auth.load(home), // its own listeners: only `all` below drops clients
    hub,
    host: "127.0.0.1",
    port: () => 4567,
    tls: false,
  });
  const urls = local.urls(qrCode);
  assertEquals(urls.map((u) => [u.kind, u.url]), [[
    "local",
    `http://127.0.0.1:4567/?token=${encodeURIComponent(auth.token)}`,
  ]]);
  const all = await RemoteAccess.load({
    home,
    auth,
    hub,
    host: "0.0.0.0",
    port: () => 4567,
    tls: true,
  });
  const net = all.urls(qrCode).filter((u) => u.kind === "network");
  if (LAN) assert(net.some((u) => u.url.startsWith(`https://${LAN}:4567/?token=`)), "LAN URL");
  assert(net.every((u) => u.iface !== "" && u.qr.size > 20));

  const closes: [string, number][] = [];
  const me = fakeClient("me", closes), other = fakeClient("other", closes);
  hub.add(me);
  hub.add(other);
  const info = await all.info(me);
  assertEquals(info.clients.map((c) => [c.id, c.you, c.ip, c.since]), [
    ["me", true, "192.0.2.50", 1000],
    ["other", false, "192.0.2.50", 1000],
  ]);
  assertEquals(info.allInterfaces, true);
  const old = auth.token;
  const fresh = await all.resetToken(me);
  assert(fresh !== old && auth.verify(fresh) && !auth.verify(old));
  assertEquals(closes, [["other", 4001]], "every client but the caller is dropped");
  assertEquals(TOKEN_RESET_CLOSE, 4001);
  assert(all.urls(qrCode)[0].url.endsWith(encodeURIComponent(fresh)), "the QR shows the new token");
});

Deno.test("trusted proxy switch: stored in remote.json; a damaged file is left as it is", async () => {
  const home = await Deno.makeTempDir();
  const o = {
    home,
    auth: await Auth.load(home),
    hub: new EventHub(),
    host: "127.0.0.1",
    port: () => 1,
    tls: false,
  };
  const r = await RemoteAccess.load(o);
  assertEquals(r.trustProxy, false);
  await r.setTrustProxy(true);
  assertEquals((await RemoteAccess.load(o)).trustProxy, true, "kept across restarts");
  const req = new Request("http://x/", { headers: { "x-forwarded-for": "198.51.100.4" } });
  assertEquals(r.addressOf(req, "127.0.0.1"), "198.51.100.4");

  await Deno.writeTextFile(remoteSettingsPath(home), "{not json");
  const bad = await RemoteAccess.load(o);
  assertEquals(bad.trustProxy, false, "a damaged file means off");
  assert((await bad.info()).settingsError);
  let code = "";
  try {
    await bad.setTrustProxy(true);
  } catch (e) {
    code = (e as { code: string }).code;
  }
  assertEquals(code, "conflict");
  assertEquals(await Deno.readTextFile(remoteSettingsPath(home)), "{not json", "not overwritten");
});

async function withServer(
  args: string[],
  fn: (s: TestServer) => Promise<void>,
  home?: string,
): Promise<void> {
  const s = await startTestServer({ args, home });
  try {
    await fn(s);
  } catch (e) {
    console.error(s.output());
    throw e;
  } finally {
    await s.stop();
  }
}

Deno.test(
  "token reset over the WebSocket: others closed with 4001, the caller re-pairs",
  () =>
    withServer([], async (s) => {
      const caller = await TestClient.connect(s.base, s.token);
      const other = await TestClient.connect(s.base, s.token);
      const before = await caller.request("remote.info");
      assertEquals(before.clients.length, 2);
      assertEquals(before.clients.filter((c: { you: boolean }) => c.you).length, 1);
      const r = await caller.request("remote.resetToken");
      assert(r.token !== s.token);
      assertEquals((await other.closed).code, TOKEN_RESET_CLOSE);
      assertEquals((await caller.request("remote.info")).clients.length, 1, "the caller stays");
      assertEquals(await Deno.readTextFile(`${s.home}/token`), r.token + "\n");

      const old = await fetch(`${s.base}/api/health`, {
        headers: { cookie: `reinagent_${new URL(s.base).port}=${s.token}` },
      });
      await old.body?.cancel();
      assertEquals(old.status, 401, "the old cookie no longer works");
      const pair = await fetch(`${s.base}/api/pair?token=${encodeURIComponent(r.token)}`, {
        method: "POST",
        headers: { origin: s.base },
      });
      assertEquals(pair.status, 204);
      assertMatch(pair.headers.get("set-cookie") ?? "", /^reinagent_\d+=.+; Path=\/; HttpOnly/);
      const foreign = await fetch(`${s.base}/api/pair?token=${encodeURIComponent(r.token)}`, {
        method: "POST",
        headers: { origin: "http://evil.example" },
      });
      await foreign.body?.cancel();
      assertEquals(foreign.status, 403, "another site cannot plant the cookie");
      await caller.close();
    }),
);

/** Status of a request with a bad token, as if forwarded for `xff`. */
async function badToken(base: string, xff: string): Promise<number> {
  const r = await fetch(`${base}/api/health?token=wrong-token-xxxxxxxx`, {
    headers: { "x-forwarded-for": xff },
  });
  await r.body?.cancel();
  return r.status;
}

Deno.test(
  "behind a trusted proxy the forwarded address is locked out, not loopback",
  async () => {
    // Off (default): everything through a local proxy is loopback, never locked out.
    await withServer([], async (s) => {
      for (let i = 0; i < 6; i++) assertEquals(await badToken(s.base, "203.0.113.9"), 401);
    });
    const home = await Deno.makeTempDir({ prefix: "ra-home-" });
    await Deno.writeTextFile(remoteSettingsPath(home), '{"trustProxy": true}\n');
    await withServer(["--host", "0.0.0.0"], async (s) => {
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push(await badToken(s.base, "203.0.113.9"));
      assertEquals(statuses, [401, 401, 401, 401, 429]);
      const ok = await fetch(`${s.base}/api/health?token=${s.token}`, {
        headers: { "x-forwarded-for": "203.0.113.9" },
      });
      await ok.body?.cancel();
      assertEquals(ok.status, 429, "even the right token, from the locked address");
      const other = await fetch(`${s.base}/api/health?token=${s.token}`, {
        headers: { "x-forwarded-for": "203.0.113.10" },
      });
      await other.body?.cancel();
      assertEquals(other.status, 200, "other clients behind the proxy still get in");
      if (LAN) {
        // A client on the network cannot pick its address: its header is ignored.
        const port = new URL(s.base).port;
        for (let i = 0; i < 5; i++) await badToken(`http://${LAN}:${port}`, `198.51.100.${i}`);
        assertEquals(await badToken(`http://${LAN}:${port}`, "198.51.100.99"), 429);
      }
      const c = await TestClient.connect(s.base, s.token);
      assertEquals((await c.request("remote.info")).trustProxy, true);
      await c.close();
    }, home);
  },
);

Deno.test(
  "installable app: manifest, icons, service worker — public, typed, scoped",
  () =>
    withServer([], async (s) => {
      const get = async (path: string) => {
        const r = await fetch(`${s.base}${path}`); // no token, no cookie
        return {
          status: r.status,
          type: r.headers.get("content-type") ?? "",
          body: await r.bytes(),
        };
      };
      const text = (b: Uint8Array) => new TextDecoder().decode(b);
      const m = await get("/manifest.webmanifest");
      assertEquals([m.status, m.type], [200, "application/manifest+json; charset=utf-8"]);
      const manifest = JSON.parse(text(m.body));
      assertEquals([manifest.scope, manifest.start_url, manifest.display], [
        "/",
        "/",
        "standalone",
      ]);
      const sizes = manifest.icons.map((i: { sizes: string }) => i.sizes);
      assert(sizes.includes("192x192") && sizes.includes("512x512"));
      for (const icon of manifest.icons) {
        const r = await get(icon.src);
        assertEquals([r.status, r.type], [200, icon.type]);
        if (icon.type === "image/png") {
          assertEquals([...r.body.slice(1, 4)], [0x50, 0x4e, 0x47], `${icon.src} is a PNG`);
          const width = new DataView(r.body.buffer).getUint32(16);
          assertEquals(`${width}x${width}`, icon.sizes);
        }
      }
      const sw = await get("/sw.js");
      assertEquals([sw.status, sw.type], [200, "text/javascript; charset=utf-8"]);
      const shell: string[] = JSON.parse(text(sw.body).match(/^const SHELL = (.*);$/m)![1]);
      assert(shell.some((u) => u.startsWith("/assets/app.js?v=")), "the bundle is cached");
      assert(shell.every((u) => !u.startsWith("/api/") && u !== "/ws" && u !== "/mcp"), "no data");
      assertMatch(text(sw.body), /Offline — reconnecting/);

      const page = await get("/");
      assertEquals(page.status, 401, "the app itself still needs the token");
      const first = await fetch(`${s.base}/?token=${s.token}`, { redirect: "manual" });
      await first.body?.cancel();
      const cookie = first.headers.get("set-cookie")!.split(";")[0];
      const html = await (await fetch(`${s.base}/`, { headers: { cookie } })).text();
      assertMatch(html, /<link rel="manifest" href="\/manifest.webmanifest">/);
      assertMatch(html, /<link rel="apple-touch-icon" href="\/icons\/icon-192.png">/);
      const post = await fetch(`${s.base}/sw.js`, { method: "POST" });
      await post.body?.cancel();
      assertEquals(post.status, 401, "only GET/HEAD are public");
    }),
);

Deno.test("pair-again screen: the token from a pasted link, never its host; links shown cut", () => {
  assertEquals(tokenFromLink(" http://192.0.2.2:4567/?token=abc-DEF_123 "), "abc-DEF_123");
  assertEquals(tokenFromLink("https://evil.example/?token=t0k"), "t0k", "only the token is kept");
  assertEquals(tokenFromLink("Zx8_abcdefghijklmnopq"), "Zx8_abcdefghijklmnopq", "a bare token");
  assertEquals(tokenFromLink("http://192.0.2.2:4567/"), "");
  assertEquals(tokenFromLink("short"), "");
  assertEquals(tokenFromLink(""), "");
  assertEquals(shownUrl("http://h:1/?token=abcdefgh"), "http://h:1/?token=abcd…");
});
