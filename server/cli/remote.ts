/** What a headless server prints for phones: LAN URLs and a terminal QR code. */
import qrcode from "qrcode-generator";

/** URLs (with token) on each non-internal IPv4 address when bound to all interfaces. */
export function lanUrls(app: { url: string; port: number }, host: string): string[] {
  if (host !== "0.0.0.0" && host !== "::") return [];
  const token = new URL(app.url).searchParams.get("token") ?? "";
  const scheme = new URL(app.url).protocol;
  return Deno.networkInterfaces()
    .filter((i) => i.family === "IPv4" && !i.address.startsWith("127."))
    .map((i) => `${scheme}//${i.address}:${app.port}/?token=${encodeURIComponent(token)}`);
}

/** Whether `host` is this computer only (a phone cannot open it). */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || host.startsWith("127.");
}

/** A QR code drawn with half-block characters (two modules per character row). */
export function terminalQr(text: string): string {
  const qr = qrcode(0, "L");
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  const dark = (r: number, c: number) => r >= 0 && r < n && c >= 0 && c < n && qr.isDark(r, c);
  const lines: string[] = [];
  for (let r = -2; r < n + 2; r += 2) {
    let line = "";
    for (let c = -2; c < n + 2; c++) {
      const top = dark(r, c), bottom = dark(r + 1, c);
      // Light modules are drawn as full blocks so the code reads on dark terminals.
      line += top && bottom ? " " : top ? "▄" : bottom ? "▀" : "█";
    }
    lines.push(line);
  }
  return lines.join("\n");
}
