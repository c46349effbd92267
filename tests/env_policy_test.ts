/** The command environment policy and the sandbox's hidden-path mounts (pure parts). */
import { assert, assertEquals } from "./helpers/assert.ts";
import { commandEnv } from "../tools/exec/env_policy.ts";
import { bwrapArgs, cwdHidden, type SandboxSpec, sandboxStatus } from "../tools/exec/bwrap.ts";
import { execCommand, type ExecContext } from "../tools/exec/exec_command.ts";

Deno.test("env policy: provider keys, secret-looking names and control variables are withheld", () => {
  const base = {
    PATH: "/usr/bin",
    HOME: "/home/u",
    LANG: "C.UTF-8",
    deepseek_api_key: "sk-1", // any case
    MY_VAR: "sk-the-real-provider-key", // a stored key under an innocent name
    OPENAI_API_KEY: "x",
    AWS_SECRET_ACCESS_KEY: "x",
    GH_TOKEN: "x",
    DB_PASSWORD: "x",
    GOOGLE_APPLICATION_CREDENTIALS: "/k.json",
    GITLAB_PAT: "x",
    REINAGENT_HOME: "/data",
    DENO_NO_PROMPT: "1",
    DENO_AUTH_TOKENS: "a@b",
    SHORT: "sk", // too short to be matched by value
  };
  const { env, withheld } = commandEnv(base, {
    providerNames: ["DEEPSEEK_API_KEY"],
    secretValues: ["sk-the-real-provider-key", "sk"],
    allow: ["GH_TOKEN", "deepseek_api_key", "REINAGENT_HOME"],
  });
  assertEquals(Object.keys(env).sort(), ["GH_TOKEN", "HOME", "LANG", "PATH", "SHORT"]);
  const why = Object.fromEntries(withheld.map((w) => [w.name, w.reason]));
  assertEquals(why, {
    AWS_SECRET_ACCESS_KEY: "secret",
    DB_PASSWORD: "secret",
    DENO_AUTH_TOKENS: "deno",
    DENO_NO_PROMPT: "deno",
    GITLAB_PAT: "secret",
    GOOGLE_APPLICATION_CREDENTIALS: "secret",
    MY_VAR: "provider",
    OPENAI_API_KEY: "secret",
    REINAGENT_HOME: "reinagent",
    deepseek_api_key: "provider",
  });
  // The allow-list never lets a provider key or a ReinAgent variable through.
  assert(!("deepseek_api_key" in env) && !("REINAGENT_HOME" in env));
});

const spec = (over: Partial<SandboxSpec>): SandboxSpec => ({
  level: "workspace-write",
  network: true,
  workspace: "/data/DefaultProject",
  cwd: "/data/DefaultProject",
  ...over,
});

Deno.test("sandbox mounts: deeper paths win, hiding wins at equal depth, files read as empty", () => {
  const args = bwrapArgs(spec({
    hidden: [
      { path: "/data", dir: true },
      { path: "/data/DefaultProject/.reinagent/attachments", dir: true },
      { path: "/home/u/.netrc", dir: false },
    ],
    visible: ["/data/DefaultProject/.reinagent/attachments/u1"],
  }));
  const s = args.join(" ");
  const at = (x: string) => s.indexOf(x);
  assert(at("--tmpfs /data ") < at("--bind /data/DefaultProject /data/DefaultProject"), s);
  assert(
    at("--bind /data/DefaultProject") < at("--tmpfs /data/DefaultProject/.reinagent/attachments"),
    s,
  );
  assert(
    at("--tmpfs /data/DefaultProject/.reinagent/attachments") <
      at("--ro-bind /data/DefaultProject/.reinagent/attachments/u1"),
    s,
  );
  assert(s.includes("--ro-bind /dev/null /home/u/.netrc"), s);
  // Read-only after every bind, so the mount points inside could be created.
  assert(at("--remount-ro /data ") > at("--ro-bind /data/DefaultProject/.reinagent"), s);
  const same = bwrapArgs(spec({ workspace: "/w", cwd: "/w", hidden: [{ path: "/w", dir: true }] }))
    .join(" ");
  assert(same.indexOf("--bind /w /w") < same.indexOf("--tmpfs /w"), same);
});

Deno.test("sandbox mounts: a cwd that only a hidden path could show is detected", () => {
  const hidden = [{ path: "/data", dir: true }];
  assertEquals(cwdHidden(spec({ hidden, cwd: "/data/checkpoints" }))?.path, "/data");
  assertEquals(cwdHidden(spec({ hidden, cwd: "/data/DefaultProject/src" })), null);
  assertEquals(cwdHidden(spec({ hidden, cwd: "/srv" })), null);
  assertEquals(cwdHidden(spec({ hidden, cwd: "/data" }))?.path, "/data");
});

Deno.test({
  name: "exec_command: a cwd inside a hidden folder is refused before anything runs",
  ignore: !(await sandboxStatus()).available,
  async fn() {
    const data = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-hidden-" }));
    await Deno.mkdir(`${data}/DefaultProject`);
    await Deno.mkdir(`${data}/checkpoints`);
    try {
      const r = await execCommand.execute({ command: "touch ran", cwd: `${data}/checkpoints` }, {
        workspace: `${data}/DefaultProject`,
        signal: new AbortController().signal,
        sandbox: "workspace-write",
        hidden: [data],
      } as ExecContext);
      assert(r.isError, r.content);
      assertEquals((r.meta?.refusal as { code: string }).code, "hidden_path");
      let ran = true;
      await Deno.stat(`${data}/checkpoints/ran`).catch(() => ran = false);
      assert(!ran, "the command ran");
    } finally {
      await Deno.remove(data, { recursive: true });
    }
  },
});

Deno.test("exec_command: the environment policy applies with the sandbox off too", async () => {
  const ws = await Deno.makeTempDir({ prefix: "ra-env-off-" });
  Deno.env.set("RA_TEST_API_TOKEN", "do-not-leak-1234");
  Deno.env.set("RA_TEST_PLAIN", "fine");
  try {
    const r = await execCommand.execute({ command: "env" }, {
      workspace: ws,
      signal: new AbortController().signal,
      sandbox: "off",
      envPolicy: { secretValues: ["fine-but-a-key-value"] },
    } as ExecContext);
    assert(
      !r.content.includes("do-not-leak-1234"),
      "a secret-looking variable reached the command",
    );
    assert(r.content.includes("RA_TEST_PLAIN=fine"), r.content.slice(0, 200));
    assertEquals(r.meta?.sandbox, "off");
  } finally {
    Deno.env.delete("RA_TEST_API_TOKEN");
    Deno.env.delete("RA_TEST_PLAIN");
    await Deno.remove(ws, { recursive: true });
  }
});
