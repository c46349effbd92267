/** `reinagent export | import | backup | restore` arguments (parsed before anything of the commands loads). */
import { resolve } from "../../lib/path.ts";
import { parseFlags } from "./flags.ts";
import {
  EXPORT_FORMATS,
  type ExportFormat,
  FOREIGN_SOURCES,
  type ForeignSource,
} from "../../protocol/carry.ts";

export type CarryCommand =
  | {
    kind: "export";
    home?: string;
    taskIds: string[];
    all: boolean;
    format: ExportFormat;
    out?: string;
  }
  | { kind: "import"; home?: string; file?: string; from?: ForeignSource; path?: string }
  | {
    kind: "backup";
    home?: string;
    includeKeys: boolean;
    out?: string;
    webdav?: string;
    webdavUser?: string;
  }
  | { kind: "restore"; home?: string; file?: string; webdav?: string; webdavUser?: string };

type Parsed = { command: CarryCommand } | { error: string };
const homeOf = (v: Record<string, string>) => (v["--home"] ? { home: v["--home"] } : {});

export function parseExportArgs(argv: string[]): Parsed {
  const f = parseFlags(argv, { values: ["--home", "--format", "--out"], bools: ["--all"] });
  if ("error" in f) return f;
  const format = (f.values["--format"] ?? "md") as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) {
    return { error: `--format must be md or json, got "${format}"` };
  }
  const all = f.bools.has("--all");
  if (all === (f.positional.length > 0)) {
    return { error: "export takes task ids or --all (one of them)" };
  }
  return {
    command: {
      kind: "export",
      ...homeOf(f.values),
      taskIds: f.positional,
      all,
      format,
      ...(f.values["--out"] ? { out: f.values["--out"] } : {}),
    },
  };
}

export function parseImportArgs(argv: string[]): Parsed {
  const f = parseFlags(argv, { values: ["--home", "--from"] });
  if ("error" in f) return f;
  const from = f.values["--from"] as ForeignSource | undefined;
  if (from !== undefined && !FOREIGN_SOURCES.includes(from)) {
    return { error: `--from must be one of ${FOREIGN_SOURCES.join(", ")}, got "${from}"` };
  }
  if (f.positional.length > 1) return { error: "import takes one file or folder" };
  if (!from && !f.positional.length) return { error: "import needs a FILE or --from SOURCE" };
  const p = f.positional[0] ? resolve(f.positional[0]) : undefined;
  return {
    command: from
      ? { kind: "import", ...homeOf(f.values), from, ...(p ? { path: p } : {}) }
      : { kind: "import", ...homeOf(f.values), file: p },
  };
}

export function parseBackupArgs(argv: string[]): Parsed {
  const f = parseFlags(argv, {
    values: ["--home", "--out", "--webdav", "--webdav-user"],
    bools: ["--include-keys"],
  });
  if ("error" in f) return f;
  if (f.positional.length) return { error: `backup takes no arguments, got "${f.positional[0]}"` };
  if (f.values["--out"] && f.values["--webdav"]) {
    return { error: "--out and --webdav exclude each other" };
  }
  return {
    command: {
      kind: "backup",
      ...homeOf(f.values),
      includeKeys: f.bools.has("--include-keys"),
      ...(f.values["--out"] ? { out: f.values["--out"] } : {}),
      ...(f.values["--webdav"] ? { webdav: f.values["--webdav"] } : {}),
      ...(f.values["--webdav-user"] ? { webdavUser: f.values["--webdav-user"] } : {}),
    },
  };
}

export function parseRestoreArgs(argv: string[]): Parsed {
  const f = parseFlags(argv, { values: ["--home", "--webdav", "--webdav-user"] });
  if ("error" in f) return f;
  const webdav = f.values["--webdav"];
  if (Boolean(webdav) === (f.positional.length === 1) || f.positional.length > 1) {
    return { error: "restore takes one FILE or --webdav URL" };
  }
  return {
    command: {
      kind: "restore",
      ...homeOf(f.values),
      ...(webdav ? { webdav } : { file: resolve(f.positional[0]) }),
      ...(f.values["--webdav-user"] ? { webdavUser: f.values["--webdav-user"] } : {}),
    },
  };
}
