/** The app's icon as PNG bytes (the same file the web manifest serves), for the window. */
import icon192 from "../../../ui/icons/icon-192.png.b64" with { type: "text" };

export function appIconPng(): Uint8Array<ArrayBuffer> {
  const bin = atob(icon192.trim());
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
