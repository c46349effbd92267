/** Command-line parsing: strict, so a typo is an error rather than ignored. */

export const USAGE = `Usage:
  reinagent [--port N] [--home DIR] [--no-open]
      Start the server on 127.0.0.1 and open the desktop window.
  reinagent serve [--host ADDR] [--port N] [--home DIR] [--tls-cert FILE --tls-key FILE]
      Headless server (for a VPS or phones); prints the URL and a QR code.
  reinagent --version
  reinagent --help

Options:
  --host ADDR      address to bind (default 127.0.0.1; 0.0.0.0 for phones on your network)
  --port N         port (default: a free one)
  --home DIR       data directory (default $REINAGENT_HOME or ~/.reinagent)
  --no-open        do not open a window
  --tls-cert FILE  PEM certificate (serve over HTTPS; needs --tls-key)
  --tls-key FILE   PEM private key`;

export interface ServerCommand {
  kind: "window" | "serve";
  host?: string;
  port?: number;
  home?: string;
  noOpen: boolean;
  tlsCert?: string;
  tlsKey?: string;
}

export type Command = ServerCommand | { kind: "help" } | { kind: "version" };

const VALUE_FLAGS = new Set(["--host", "--port", "--home", "--tls-cert", "--tls-key"]);

export function parseCli(argv: string[]): { command: Command } | { error: string } {
  if (argv.includes("--help") || argv.includes("-h")) return { command: { kind: "help" } };
  if (argv.includes("--version") || argv.includes("-V")) return { command: { kind: "version" } };
  const cmd: ServerCommand = { kind: "window", noOpen: false };
  const args = [...argv];
  if (args[0] && !args[0].startsWith("-")) {
    const sub = args.shift()!;
    if (sub !== "serve") return { error: `unknown command "${sub}"` };
    cmd.kind = "serve";
  }
  while (args.length) {
    let flag = args.shift()!;
    let value: string | undefined;
    const eq = flag.indexOf("=");
    if (flag.startsWith("--") && eq > 0) {
      value = flag.slice(eq + 1);
      flag = flag.slice(0, eq);
    }
    if (flag === "--no-open") {
      cmd.noOpen = true;
      continue;
    }
    if (!VALUE_FLAGS.has(flag)) return { error: `unknown option "${flag}"` };
    value ??= args.shift();
    if (value === undefined || value === "") return { error: `${flag} needs a value` };
    switch (flag) {
      case "--host":
        if (cmd.kind !== "serve") return { error: "--host is only for `reinagent serve`" };
        cmd.host = value;
        break;
      case "--port": {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 0 || n > 65535) {
          return { error: `--port must be 0–65535, got "${value}"` };
        }
        cmd.port = n;
        break;
      }
      case "--home":
        cmd.home = value;
        break;
      case "--tls-cert":
        cmd.tlsCert = value;
        break;
      case "--tls-key":
        cmd.tlsKey = value;
        break;
    }
  }
  if (Boolean(cmd.tlsCert) !== Boolean(cmd.tlsKey)) {
    return { error: "--tls-cert and --tls-key go together" };
  }
  if (cmd.tlsCert && cmd.kind !== "serve") {
    return { error: "TLS options are only for `reinagent serve`" };
  }
  return { command: cmd };
}
