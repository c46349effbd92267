/**
 * A QR code drawn from the server's module path (protocol `QrCode`): dark squares on a
 * white quiet zone, whatever the theme, so any phone camera reads it.
 */
import { html } from "../../html.js";

/** @param {{qr: import("../../../protocol/index.ts").QrCode, label: string}} props */
export function RemoteAccessQr({ qr, label }) {
  return html`
    <svg
      class="remote-qr"
      data-testid="remote-qr"
      viewBox=${`0 0 ${qr.size} ${qr.size}`}
      role="img"
      aria-label=${label}
      shape-rendering="crispEdges"
    >
      <rect width=${qr.size} height=${qr.size} fill="#fff" />
      <path d=${qr.path} fill="#000" />
    </svg>
  `;
}
