/** QR codes for Settings → Remote access (loaded lazily: the library is not needed at start). */
import qrcode from "qrcode-generator";
import type { QrCode } from "../../protocol/index.ts";

/** A QR code as one SVG path (a unit square per dark module, a 2-module quiet zone). */
export function qrCode(text: string): QrCode {
  const qr = qrcode(0, "L");
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  let path = "";
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) if (qr.isDark(r, c)) path += `M${c + 2} ${r + 2}h1v1h-1z`;
  }
  return { size: n + 4, path };
}
