/**
 * Notifications, unit level: RFC 8291 payload encryption against the RFC's own example
 * (§5 / Appendix A), the VAPID JWT, the VAPID key file, and which task changes notify.
 */
import { assert, assertEquals, assertRejects } from "./helpers/assert.ts";
import { encryptPayload, importP256, MAX_PLAINTEXT } from "../server/notify/ece.ts";
import { b64urlDecode, b64urlEncode } from "../server/notify/b64url.ts";
import { loadVapid, vapidAuthorization, vapidPath } from "../server/notify/vapid.ts";
import { notifyKindOf } from "../server/notify/transitions.ts";
import { endpointProblem } from "../server/notify/push_sender.ts";
import { decryptBody, newSubscriber, verifyVapid } from "./helpers/push_receiver.ts";

// RFC 8291 §5 and Appendix A.
const RFC = {
  plaintext: "When I grow up, I want to be a watermelon",
  uaPublic:
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
  uaPrivate: "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94",
  authSecret: "BTBZMqHH6r4Tts7J_aSIgg",
  asPublic:
    "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8",
  asPrivate: "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw",
  salt: "DGv6ra1nlYgDCS1FRnbzlw",
  body:
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
};

Deno.test("aes128gcm encryption reproduces RFC 8291's example byte for byte", async () => {
  const asPub = b64urlDecode(RFC.asPublic);
  const ephemeral = {
    privateKey: await importP256(RFC.asPrivate, asPub, "ECDH"),
    publicKey: await crypto.subtle.importKey(
      "raw",
      asPub,
      { name: "ECDH", namedCurve: "P-256" },
      true,
      [],
    ),
  };
  const body = await encryptPayload(
    RFC.uaPublic,
    RFC.authSecret,
    new TextEncoder().encode(RFC.plaintext),
    { ephemeral, salt: b64urlDecode(RFC.salt) },
  );
  assertEquals(b64urlEncode(body), RFC.body);
  // And the receiver (the RFC's user agent key) reads it back.
  const ua = b64urlDecode(RFC.uaPublic);
  const sub = {
    keys: {
      privateKey: await importP256(RFC.uaPrivate, ua, "ECDH"),
      publicKey: ephemeral.publicKey,
    },
    p256dh: RFC.uaPublic,
    auth: RFC.authSecret,
    authBytes: b64urlDecode(RFC.authSecret),
  };
  assertEquals(await decryptBody(sub, body), RFC.plaintext);
});

Deno.test("a fresh encryption (random key and salt) decrypts with the subscription's keys", async () => {
  const sub = await newSubscriber();
  const text = JSON.stringify({ kind: "finished", title: "任务 ✓" });
  const a = await encryptPayload(sub.p256dh, sub.auth, new TextEncoder().encode(text));
  const b = await encryptPayload(sub.p256dh, sub.auth, new TextEncoder().encode(text));
  assert(b64urlEncode(a) !== b64urlEncode(b), "every message has its own salt and key");
  assertEquals(await decryptBody(sub, a), text);
  assertEquals(new DataView(a.buffer).getUint32(16), 4096, "record size");
});

Deno.test("bad subscription keys and oversized payloads are refused", async () => {
  const sub = await newSubscriber();
  await assertRejects(() => encryptPayload("AAAA", sub.auth, new Uint8Array(1)));
  await assertRejects(() => encryptPayload(sub.p256dh, "AAAA", new Uint8Array(1)));
  await assertRejects(() =>
    encryptPayload(sub.p256dh, sub.auth, new Uint8Array(MAX_PLAINTEXT + 1))
  );
  await encryptPayload(sub.p256dh, sub.auth, new Uint8Array(MAX_PLAINTEXT));
});

Deno.test("VAPID: keys made once (0600), reused, a JWT of the right shape that verifies", async () => {
  const home = await Deno.makeTempDir();
  const keys = await loadVapid(home);
  const st = await Deno.stat(vapidPath(home));
  assertEquals(st.mode! & 0o777, 0o600);
  assertEquals(b64urlDecode(keys.publicKey).length, 65);
  assertEquals((await loadVapid(home)).publicKey, keys.publicKey, "the same key on the next start");
  const endpoint = "https://fcm.googleapis.com/fcm/send/abc:def";
  const header = await vapidAuthorization(keys, endpoint);
  const claims = await verifyVapid(header, endpoint, keys.publicKey);
  assertEquals(claims.aud, "https://fcm.googleapis.com");
  assertEquals(Object.keys(claims).sort(), ["aud", "exp", "sub"]);
  const [h] = header.slice("vapid t=".length).split(".");
  assertEquals(JSON.parse(new TextDecoder().decode(b64urlDecode(h))), {
    typ: "JWT",
    alg: "ES256",
  });
});

Deno.test("VAPID: a corrupt key file is reported and left untouched", async () => {
  const home = await Deno.makeTempDir();
  await Deno.writeTextFile(vapidPath(home), "{not json");
  await assertRejects(() => loadVapid(home));
  assertEquals(await Deno.readTextFile(vapidPath(home)), "{not json");
  await Deno.writeTextFile(vapidPath(home), '{"publicKey":"AAAA","privateKey":"BBBB"}');
  await assertRejects(() => loadVapid(home));
  assertEquals(
    await Deno.readTextFile(vapidPath(home)),
    '{"publicKey":"AAAA","privateKey":"BBBB"}',
  );
});

Deno.test("which task changes notify", () => {
  const s = (status: string, lastRun: string | null = null) =>
    ({ status, lastRun }) as Parameters<typeof notifyKindOf>[1];
  // Waiting for an approval or a question: once, when it starts waiting.
  assertEquals(notifyKindOf(s("running"), s("waiting")), "waiting");
  assertEquals(notifyKindOf(undefined, s("waiting")), "waiting");
  assertEquals(notifyKindOf(s("waiting"), s("waiting")), null);
  // A run ends.
  assertEquals(notifyKindOf(s("running"), s("idle", "done")), "finished");
  assertEquals(notifyKindOf(s("running"), s("idle", "maxSteps")), "finished");
  assertEquals(notifyKindOf(s("waiting"), s("idle", "failed")), "failed");
  assertEquals(notifyKindOf(s("running"), s("idle", "failed")), "failed");
  // Silent: stopped by the user, interrupted, or any change of an idle task.
  assertEquals(notifyKindOf(s("running"), s("idle", "stopped")), null);
  assertEquals(notifyKindOf(s("running"), s("idle", "interrupted")), null);
  assertEquals(notifyKindOf(s("idle", "done"), s("idle", "done")), null);
  assertEquals(notifyKindOf(undefined, s("idle", "done")), null);
  assertEquals(notifyKindOf(s("idle"), s("running")), null);
  assertEquals(notifyKindOf(s("waiting"), s("running")), null);
});

Deno.test("push endpoints: https only; loopback http only with the test switch", () => {
  assertEquals(endpointProblem("https://fcm.googleapis.com/fcm/send/x"), null);
  assert(endpointProblem("http://push.example.com/x") !== null);
  assert(endpointProblem("https://user:pw@push.example.com/x") !== null);
  assert(endpointProblem("file:///etc/passwd") !== null);
  assert(endpointProblem("not a url") !== null);
  const before = Deno.env.get("REINAGENT_PUSH_ALLOW_HTTP");
  Deno.env.set("REINAGENT_PUSH_ALLOW_HTTP", "1");
  try {
    assertEquals(endpointProblem("http://127.0.0.1:9/push"), null);
    assert(endpointProblem("http://10.0.0.5/push") !== null, "only loopback");
  } finally {
    if (before === undefined) Deno.env.delete("REINAGENT_PUSH_ALLOW_HTTP");
    else Deno.env.set("REINAGENT_PUSH_ALLOW_HTTP", before);
  }
});
