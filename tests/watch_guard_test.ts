/**
 * Nothing watches the database's folder: Deno's watcher opens the files behind its
 * events, and closing them drops the locks SQLite holds in this process. Neither backend
 * of lib/watch.ts is let near it, and nothing watches folders but through lib/watch.ts.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { holdsDatabase, pollFile, watchFolders } from "../lib/watch.ts";
import { Store } from "../store/store.ts";
import { WorkspaceWatcher } from "../server/agent/workspace_watch.ts";
import { ROOT } from "./helpers/server.ts";

/** POSIX locks this process holds on `file`. */
function locksOn(file: string): number {
  const ino = Deno.statSync(file).ino;
  return Deno.readTextFileSync("/proc/locks").split("\n").filter((l) => {
    const f = l.trim().split(/\s+/);
    return f[1] === "POSIX" && f[4] === String(Deno.pid) && f[5]?.endsWith(`:${ino}`);
  }).length;
}

for (const backend of ["inotify", "fs-events"] as const) {
  Deno.test({
    name: `a folder holding an open database is never watched (${backend})`,
    ignore: backend === "inotify" && Deno.build.os !== "linux",
  }, async () => {
    const home = await Deno.makeTempDir({ prefix: "ra-watch-" });
    const store = new Store(`${home}/reinagent.db`);
    try {
      assert(holdsDatabase(home));
      let refused = "";
      try {
        watchFolders([home], { seen() {}, barrierDir: `${home}/checkpoints/barrier`, backend })
          .close();
      } catch (e) {
        refused = (e as Error).message;
      }
      assert(/holds a live database/.test(refused), refused);
      // A workspace that contains the data folder walks it instead of watching it.
      const w = new WorkspaceWatcher(
        home,
        new Set([home]),
        `${home}/checkpoints/barrier`,
        backend,
      );
      assert(w.start(), "the watcher starts on the rest");
      assert(w.unwatched.has(home), "the database's folder is walked at each update");
      assert(await w.sync(), "and it works");
      w.close();
    } finally {
      store.close();
      await Deno.remove(home, { recursive: true });
    }
  });
}

Deno.test({
  name: "changes beside the database leave SQLite's locks in place",
  ignore: Deno.build.os !== "linux",
}, async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-watch-" });
  const store = new Store(`${home}/reinagent.db`);
  const changed: string[] = [];
  const poll = pollFile(`${home}/mcp_servers.json`, () => changed.push("mcp"), 10);
  try {
    store.repos!.kv.set("a", 1);
    const before = locksOn(`${home}/reinagent.db`);
    assert(before > 0, "SQLite holds a lock while open");
    await Deno.writeTextFile(`${home}/mcp_servers.json`, "[]");
    Deno.chmodSync(`${home}/reinagent.db`, 0o600);
    store.repos!.kv.set("b", 2);
    while (changed.length === 0) await new Promise((r) => setTimeout(r, 10));
    assertEquals(locksOn(`${home}/reinagent.db`), before);
  } finally {
    poll.close();
    store.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("every folder watch in the program goes through lib/watch.ts", async () => {
  const offenders: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(`${ROOT}${dir}`)) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory && e.name !== "dist") await walk(rel);
      else if (/\.(ts|js)$/.test(e.name) && rel !== "lib/watch.ts") {
        const text = await Deno.readTextFile(`${ROOT}${rel}`);
        const inotify = rel === "lib/inotify.ts"
          ? ""
          : text.match(/inotify_add_watch|inotify\.ts"/);
        if (text.includes("Deno.watchFs(") || inotify) offenders.push(rel);
      }
    }
  };
  for (const d of ["lib", "server", "store", "tools", "protocol"]) await walk(d);
  assertEquals(offenders, []);
});
