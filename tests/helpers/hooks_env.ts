/** Helpers of the hooks tests: workspaces, config files, runs and what they left. */
import { assert } from "./assert.ts";
import { join } from "node:path";
import { type Env } from "./agent_env.ts";
import type { Entry } from "../../protocol/index.ts";

export function assertStringIncludes(actual: string, part: string, msg?: string): void {
  assert(actual.includes(part), msg ?? `expected to include ${JSON.stringify(part)}`);
}

/** A new workspace folder (real path: hooks see it so). */
export async function workspace(): Promise<string> {
  return await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-hooks-ws-" }));
}

async function writeJson(path: string, value: unknown): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, JSON.stringify(value, null, 2));
}

/** Writes the user's hooks (`<data dir>/config.json`). */
export const userHooks = (e: Env, hooks: unknown[]) =>
  writeJson(join(e.deps.home, "config.json"), { hooks });
/** Writes a workspace's hooks (`.reinagent/config.json`, with another key kept beside). */
export const workspaceHooks = (ws: string, hooks: unknown[]) =>
  writeJson(join(ws, ".reinagent", "config.json"), { theme: "kept", hooks });

/** Runs a task in `ws`, in full mode unless told (the hooks are under test, not the gate). */
export async function run(
  e: Env,
  model: { providerId: string; modelId: string },
  ws: string,
  text: string,
  approval: "full" | "ask" = "full",
) {
  const { task } = e.deps.tasks!.create({
    message: text,
    title: "hooks",
    projectPath: ws,
    options: { model, approval },
  });
  const outcome = await e.deps.runs!.start(task.id);
  return { task, outcome };
}

/** The requests the model received, as JSON text. */
export const agentRequests = (e: Env, modelId: string) =>
  e.mock.requests(modelId).map((r) => JSON.stringify(r.body));

/** The hook notices of a timeline. */
export const hookNotes = (list: Entry[]) =>
  list.filter((x) => x.role === "system" && x.meta.kind === "hook");

/** A model that runs `command`, then answers. */
export const execScenario = (command: string) => ({
  turns: [
    { toolCalls: [{ name: "exec_command", args: { command } }] },
    { text: "done" },
  ],
});

/** A file a hook writes (observational hooks are not waited for), parsed once complete. */
export async function waitJson(path: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return JSON.parse(await Deno.readTextFile(path));
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export async function exists(p: string): Promise<boolean> {
  try {
    await Deno.stat(p);
    return true;
  } catch {
    return false;
  }
}
