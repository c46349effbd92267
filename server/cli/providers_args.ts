/**
 * Argument parsing of the provider/model CLI:
 *
 *   reinagent providers list [--json]
 *   reinagent providers add ID --format FORMAT --base-url URL [--name NAME]
 *       [--api-key-env VAR | --api-key-stdin] [--model MODEL_ID …]
 *   reinagent providers remove ID
 *   reinagent providers set-default ID MODEL_ID
 *   reinagent models fetch ID
 *   reinagent models enable|disable ID MODEL_ID
 *
 * Every command accepts `--home DIR`. Pure: no I/O.
 */
import { API_FORMATS, type ApiFormat } from "../../protocol/provider_types.ts";
import { MODEL_ID_RE, PROVIDER_ID_RE } from "../../protocol/providers.ts";
import { parseFlags } from "./flags.ts";

export type CatalogCommand =
  | { kind: "providers"; action: "list"; json: boolean; home?: string }
  | {
    kind: "providers";
    action: "add";
    id: string;
    format: Exclude<ApiFormat, "demo">;
    baseUrl: string;
    name?: string;
    apiKeyEnv?: string;
    apiKeyStdin: boolean;
    models: string[];
    home?: string;
  }
  | { kind: "providers"; action: "remove"; id: string; home?: string }
  | { kind: "providers"; action: "set-default"; id: string; modelId: string; home?: string }
  | { kind: "models"; action: "fetch"; id: string; home?: string }
  | { kind: "models"; action: "enable" | "disable"; id: string; modelId: string; home?: string };

type Result = { command: CatalogCommand } | { error: string };

function checkId(id: string): string | null {
  return PROVIDER_ID_RE.test(id) && id.length <= 40
    ? null
    : `provider id "${id}" must be 1–40 characters of a-z, 0-9 and "-"`;
}

function checkModel(id: string): string | null {
  return MODEL_ID_RE.test(id) && id.length <= 200
    ? null
    : `model id "${id}" must be 1–200 characters without spaces`;
}

function positionals(
  got: string[],
  names: string[],
  usage: string,
): { error: string } | string[] {
  if (got.length < names.length) return { error: `missing ${names[got.length]}; usage: ${usage}` };
  if (got.length > names.length) return { error: `unexpected argument "${got[names.length]}"` };
  return got;
}

/** `reinagent providers …` */
export function parseProvidersArgs(args: string[]): Result {
  const [action, ...rest] = args;
  const home = { values: ["--home"] } as const;
  switch (action) {
    case "list": {
      const f = parseFlags(rest, { ...home, bools: ["--json"] });
      if ("error" in f) return f;
      const p = positionals(f.positional, [], "reinagent providers list [--json]");
      if ("error" in p) return p;
      return {
        command: {
          kind: "providers",
          action: "list",
          json: f.bools.has("--json"),
          home: f.values["--home"],
        },
      };
    }
    case "add": {
      const f = parseFlags(rest, {
        values: ["--home", "--format", "--base-url", "--name", "--api-key-env"],
        multi: ["--model"],
        bools: ["--api-key-stdin"],
      });
      if ("error" in f) return f;
      const p = positionals(f.positional, ["ID"], "reinagent providers add ID --format FORMAT …");
      if ("error" in p) return p;
      const bad = checkId(p[0]);
      if (bad) return { error: bad };
      const format = f.values["--format"];
      if (!format) return { error: `--format is required (one of ${API_FORMATS.join(", ")})` };
      if (!(API_FORMATS as readonly string[]).includes(format)) {
        return { error: `--format must be one of ${API_FORMATS.join(", ")}; got "${format}"` };
      }
      const baseUrl = f.values["--base-url"];
      if (!baseUrl) return { error: "--base-url is required (e.g. https://api.deepseek.com)" };
      if (f.values["--api-key-env"] && f.bools.has("--api-key-stdin")) {
        return { error: "use either --api-key-env or --api-key-stdin, not both" };
      }
      const models = f.multi["--model"] ?? [];
      for (const m of models) {
        const problem = checkModel(m);
        if (problem) return { error: problem };
      }
      return {
        command: {
          kind: "providers",
          action: "add",
          id: p[0],
          format: format as Exclude<ApiFormat, "demo">,
          baseUrl,
          name: f.values["--name"],
          apiKeyEnv: f.values["--api-key-env"],
          apiKeyStdin: f.bools.has("--api-key-stdin"),
          models,
          home: f.values["--home"],
        },
      };
    }
    case "remove":
    case "set-default": {
      const f = parseFlags(rest, home);
      if ("error" in f) return f;
      const names = action === "remove" ? ["ID"] : ["ID", "MODEL_ID"];
      const p = positionals(
        f.positional,
        names,
        `reinagent providers ${action} ${names.join(" ")}`,
      );
      if ("error" in p) return p;
      const bad = checkId(p[0]) ?? (p[1] !== undefined ? checkModel(p[1]) : null);
      if (bad) return { error: bad };
      const h = f.values["--home"];
      return {
        command: action === "remove"
          ? { kind: "providers", action, id: p[0], home: h }
          : { kind: "providers", action, id: p[0], modelId: p[1], home: h },
      };
    }
    case undefined:
      return { error: "missing action: providers list|add|remove|set-default" };
    default:
      return { error: `unknown action "providers ${action}" (list, add, remove, set-default)` };
  }
}

/** `reinagent models …` */
export function parseModelsArgs(args: string[]): Result {
  const [action, ...rest] = args;
  if (action !== "fetch" && action !== "enable" && action !== "disable") {
    return {
      error: action === undefined
        ? "missing action: models fetch|enable|disable"
        : `unknown action "models ${action}" (fetch, enable, disable)`,
    };
  }
  const f = parseFlags(rest, { values: ["--home"] });
  if ("error" in f) return f;
  const names = action === "fetch" ? ["ID"] : ["ID", "MODEL_ID"];
  const p = positionals(f.positional, names, `reinagent models ${action} ${names.join(" ")}`);
  if ("error" in p) return p;
  const bad = checkId(p[0]) ?? (p[1] !== undefined ? checkModel(p[1]) : null);
  if (bad) return { error: bad };
  const home = f.values["--home"];
  return {
    command: action === "fetch"
      ? { kind: "models", action, id: p[0], home }
      : { kind: "models", action, id: p[0], modelId: p[1], home },
  };
}
