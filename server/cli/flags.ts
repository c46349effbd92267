/**
 * A strict flag parser for subcommands: known flags only, `--flag value` or
 * `--flag=value`, repeatable flags collected in order, everything else positional.
 *
 * @example
 * parseFlags(["x", "--model", "a", "--model=b", "--json"], {
 *   values: ["--home"], multi: ["--model"], bools: ["--json"],
 * }); // {positional: ["x"], values: {}, multi: {"--model": ["a","b"]}, bools: Set{"--json"}}
 */

export interface FlagSpec {
  /** Flags taking one value (given at most once). */
  values?: readonly string[];
  /** Flags taking a value, repeatable. */
  multi?: readonly string[];
  /** Flags without a value. */
  bools?: readonly string[];
}

export interface ParsedFlags {
  positional: string[];
  values: Record<string, string>;
  multi: Record<string, string[]>;
  bools: Set<string>;
}

export function parseFlags(args: string[], spec: FlagSpec): ParsedFlags | { error: string } {
  const out: ParsedFlags = { positional: [], values: {}, multi: {}, bools: new Set() };
  const rest = [...args];
  while (rest.length) {
    const arg = rest.shift()!;
    if (!arg.startsWith("-") || arg === "-") {
      out.positional.push(arg);
      continue;
    }
    let flag = arg;
    let value: string | undefined;
    const eq = arg.indexOf("=");
    if (arg.startsWith("--") && eq > 0) {
      flag = arg.slice(0, eq);
      value = arg.slice(eq + 1);
    }
    if (spec.bools?.includes(flag)) {
      if (value !== undefined) return { error: `${flag} takes no value` };
      out.bools.add(flag);
      continue;
    }
    const isValue = spec.values?.includes(flag);
    const isMulti = spec.multi?.includes(flag);
    if (!isValue && !isMulti) return { error: `unknown option "${flag}"` };
    value ??= rest.shift();
    if (value === undefined || value === "") return { error: `${flag} needs a value` };
    if (isMulti) (out.multi[flag] ??= []).push(value);
    else {
      if (flag in out.values) return { error: `${flag} was given twice` };
      out.values[flag] = value;
    }
  }
  return out;
}
