/**
 * `reinagent automations list|add|remove|run-now`: through the running instance for the
 * data dir when there is one, otherwise in this process. `run-now` without a server
 * runs the task here and waits for its end (a server's scheduler is not needed for it).
 */
import type { Automation, AutomationRun, EvtMsg } from "../../protocol/index.ts";
import { AUTOMATIONS_TOPIC } from "../../protocol/automations.ts";
import { openHomeClient } from "./home_client.ts";
import type { AutomationsCommand } from "./automations_args.ts";
import { describeSchedule } from "../automations/schedule_text.ts";
import { localTime } from "./tasks_cmd.ts";

interface Out {
  line(s: string): void;
  err(s: string): void;
}

export function automationTable(list: Automation[]): string[] {
  if (!list.length) return ["No automations yet."];
  const rows = [
    ["ID", "NAME", "SCHEDULE", "NEXT RUN", "APPROVAL", "RUNS"],
    ...list.map((a) => [
      a.id,
      a.name,
      describeSchedule(a.rule),
      a.enabled && a.nextRunAt ? localTime(a.nextRunAt) : "disabled",
      a.approval,
      String(a.runCount),
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => [...r[i]].length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd());
}

export async function automationsCommand(
  cmd: AutomationsCommand,
  home: string,
  out: Out,
): Promise<number> {
  const opened = await openHomeClient(home, "tasks");
  if ("error" in opened) {
    out.err(`reinagent: ${opened.error}`);
    return 1;
  }
  const { client, remote } = opened;
  try {
    if (cmd.action === "list") {
      const { automations } = await client.request<{ automations: Automation[] }>(
        "automations.list",
      );
      if (cmd.json) out.line(JSON.stringify(automations, null, 2));
      else automationTable(automations).forEach((l) => out.line(l));
      return 0;
    }
    if (cmd.action === "add") {
      const { automation } = await client.request<{ automation: Automation }>(
        "automations.create",
        cmd.add,
      );
      if (cmd.json) out.line(JSON.stringify(automation, null, 2));
      else {
        out.line(`Added ${automation.id} (${describeSchedule(automation.rule)}).`);
        if (automation.nextRunAt) out.line(`Next run: ${localTime(automation.nextRunAt)}.`);
        if (!remote) out.line("It runs while a ReinAgent server runs for this data dir.");
      }
      return 0;
    }
    if (cmd.action === "remove") {
      await client.request("automations.delete", { id: cmd.id });
      out.line(`Removed ${cmd.id}.`);
      return 0;
    }
    // run-now: in this process the run must end before the process does.
    const ended = remote ? null : waitForEnd(client.onEvent.bind(client));
    if (!remote) await client.request("automations.list"); // hears the automations topic
    const { run } = await client.request<{ run: AutomationRun }>("automations.runNow", {
      id: cmd.id,
    });
    const final = run.status === "running" && ended ? await ended(run.id) : run;
    if (cmd.json) out.line(JSON.stringify(final, null, 2));
    else {
      out.line(`Run ${final.id}: ${final.status}${final.taskId ? ` (task ${final.taskId})` : ""}`);
      if (final.error) out.line(`  ${final.error}`);
    }
    return final.status === "failed" ? 1 : 0;
  } catch (e) {
    out.err(`reinagent: ${(e as Error).message}`);
    return 1;
  } finally {
    await client.close();
  }
}

/** Resolves with a run once it is no longer `running` (from the automations topic). */
function waitForEnd(
  onEvent: (fn: (e: EvtMsg) => void) => void,
): (runId: string) => Promise<AutomationRun> {
  const seen = new Map<string, AutomationRun>();
  const waiting = new Map<string, (r: AutomationRun) => void>();
  onEvent((e) => {
    if (e.topic !== AUTOMATIONS_TOPIC) return;
    const ev = e.data;
    if (ev.kind !== "run" || ev.run.status === "running") return;
    seen.set(ev.run.id, ev.run);
    waiting.get(ev.run.id)?.(ev.run);
  });
  return (runId) =>
    new Promise((resolve) => {
      const done = seen.get(runId);
      if (done) resolve(done);
      else waiting.set(runId, resolve);
    });
}
