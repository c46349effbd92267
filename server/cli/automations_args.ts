/**
 * Arguments of `reinagent automations list|add|remove|run-now` (see automations_cmd.ts),
 * parsed without loading the server: the CLI's parser imports this file on every start.
 */
import { parseFlags } from "./flags.ts";
import { parseSchedule } from "../automations/schedule_text.ts";
import { APPROVAL_MODES, type ApprovalMode } from "../../protocol/constants.ts";
import type { ModelRef } from "../../protocol/domain.ts";
import type { NewAutomation } from "../../store/automations.ts";

/** `automations add`: a new automation as the user defined it (the id and due time come later). */
export type AutomationAdd = Omit<NewAutomation, "id" | "nextRunAt">;

export type AutomationsCommand =
  | { kind: "automations"; action: "list"; home?: string; json: boolean }
  | { kind: "automations"; action: "add"; home?: string; json: boolean; add: AutomationAdd }
  | { kind: "automations"; action: "remove"; home?: string; id: string }
  | { kind: "automations"; action: "run-now"; home?: string; id: string; json: boolean };

type Parsed = { command: AutomationsCommand } | { error: string };

function parseAdd(argv: string[]): Parsed {
  const f = parseFlags(argv, {
    values: ["--home", "--name", "--schedule", "--project", "--model", "--approval"],
    bools: ["--disabled", "--json", "--worktree"],
  });
  if ("error" in f) return f;
  const prompt = f.positional.join(" ").trim();
  if (!prompt) return { error: 'automations add needs a prompt: automations add "<prompt>" …' };
  const sched = f.values["--schedule"];
  if (!sched) return { error: 'automations add needs --schedule (e.g. "daily 09:00")' };
  const rule = parseSchedule(sched);
  if ("error" in rule) return rule;
  let model: ModelRef | null = null;
  const m = f.values["--model"];
  if (m) {
    const slash = m.indexOf("/");
    if (slash <= 0 || slash === m.length - 1) {
      return { error: `--model must be PROVIDER/MODEL, got "${m}"` };
    }
    model = { providerId: m.slice(0, slash), modelId: m.slice(slash + 1) };
  }
  const approval = f.values["--approval"] ?? "edit";
  if (!(APPROVAL_MODES as readonly string[]).includes(approval)) {
    return { error: `--approval must be one of ${APPROVAL_MODES.join(", ")}` };
  }
  const name = f.values["--name"] ?? [...prompt].slice(0, 40).join("");
  return {
    command: {
      kind: "automations",
      action: "add",
      home: f.values["--home"],
      json: f.bools.has("--json"),
      add: {
        name,
        prompt,
        rule,
        model,
        projectPath: f.values["--project"] ?? null,
        approval: approval as ApprovalMode,
        ...(f.bools.has("--worktree") ? { worktree: true } : {}),
        enabled: !f.bools.has("--disabled"),
      },
    },
  };
}

export function parseAutomationsArgs(argv: string[]): Parsed {
  const [action, ...rest] = argv;
  if (action === "add") return parseAdd(rest);
  if (action === "list") {
    const f = parseFlags(rest, { values: ["--home"], bools: ["--json"] });
    if ("error" in f) return f;
    if (f.positional.length) return { error: `unexpected argument "${f.positional[0]}"` };
    return {
      command: {
        kind: "automations",
        action,
        home: f.values["--home"],
        json: f.bools.has("--json"),
      },
    };
  }
  if (action === "remove" || action === "run-now") {
    const f = parseFlags(rest, { values: ["--home"], bools: ["--json"] });
    if ("error" in f) return f;
    const [id, ...extra] = f.positional;
    if (!id) return { error: `automations ${action} needs an ID (automations list shows them)` };
    if (extra.length) return { error: `unexpected argument "${extra[0]}"` };
    return action === "remove"
      ? { command: { kind: "automations", action, home: f.values["--home"], id } }
      : {
        command: {
          kind: "automations",
          action,
          home: f.values["--home"],
          id,
          json: f.bools.has("--json"),
        },
      };
  }
  return { error: "automations needs list, add, remove or run-now" };
}
