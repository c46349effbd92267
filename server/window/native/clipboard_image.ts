/**
 * Pasting an image in the native window: WebKitGTK gives the page's paste event no
 * image from the system clipboard, so the page asks the window (`clipboard-image`) and
 * gets the clipboard's image as PNG (base64) to attach as the composer does. Only the
 * app's own page is answered, and only right after the user pressed Ctrl+V or
 * Shift+Insert in the window (once per key press): a page cannot read the clipboard
 * at will. Images past the composer's limit are refused before they cross.
 */
import { Buffer } from "node:buffer";
import { COMPOSER_LIMITS } from "../../../protocol/composer.ts";
import { cstr, type GtkLibs } from "./gtk_ffi.ts";
import { linkTarget } from "./navigation.ts";
import { replyToPage } from "./page_reply.ts";

/** How long after the key press the page's request is taken (its paste event comes first). */
export const PASTE_KEY_WINDOW_MS = 3000;
/** More pixels than this are not even encoded (its PNG would be far past the limit). */
const MAX_PIXELS = 8192 * 8192;

const GDK_CONTROL_MASK = 1 << 2;
const GDK_SHIFT_MASK = 1 << 0;
const KEY_V = 0x76;
const KEY_SHIFT_V = 0x56;
const KEY_INSERT = 0xff63;

/** What the page is answered: the PNG, why not, or null (no image on the clipboard). */
export type ClipboardImageReply = { png: string } | { error: "too-large" | "not-now" } | null;

/** Ctrl+V / Shift+Insert, from a GdkEventKey's state and keyval. */
export function isPasteKey(state: number, keyval: number): boolean {
  if (state & GDK_CONTROL_MASK) return keyval === KEY_V || keyval === KEY_SHIFT_V;
  return (state & GDK_SHIFT_MASK) !== 0 && keyval === KEY_INSERT;
}

export class ClipboardImage {
  private pasteKeyAt = -Infinity;
  private clipboard: Deno.PointerValue = null;
  // One callback for every request; kept as long as the window.
  private onImage: Deno.UnsafeCallback<
    { readonly parameters: readonly ["pointer", "pointer", "pointer"]; readonly result: "void" }
  >;

  constructor(
    private l: GtkLibs,
    private view: () => Deno.PointerValue,
    private appUrl: string,
  ) {
    this.onImage = new Deno.UnsafeCallback(
      { parameters: ["pointer", "pointer", "pointer"], result: "void" } as const,
      (_clipboard, pixbuf, data) =>
        this.reply(Number(Deno.UnsafePointer.value(data)), this.encode(pixbuf)),
    );
  }

  /** The view's key-press-event: remembers a paste key (the key goes on to WebKit). */
  keyPressed(event: Deno.PointerValue): void {
    if (!event) return;
    const e = new Deno.UnsafePointerView(event);
    // GdkEventKey on 64-bit: send_event at 16, state at 24, keyval at 28.
    if (e.getInt8(16) !== 0) return; // sent by another program, not typed
    if (isPasteKey(e.getUint32(24), e.getUint32(28))) this.pasteKeyAt = performance.now();
  }

  /** The page asks for the clipboard's image (answered later, GTK reads it asynchronously). */
  request(id: number): void {
    const uri = this.l.webkit.webkit_web_view_get_uri(this.view());
    const current = uri ? Deno.UnsafePointerView.getCString(uri) : "";
    if (linkTarget(current, this.appUrl) !== "app") return this.reply(id, null);
    if (performance.now() - this.pasteKeyAt > PASTE_KEY_WINDOW_MS) {
      return this.reply(id, { error: "not-now" });
    }
    this.pasteKeyAt = -Infinity; // one read per key press
    this.clipboard ??= this.l.gtk.gtk_clipboard_get(
      this.l.gdk.gdk_atom_intern(cstr("CLIPBOARD"), 0),
    );
    if (!this.clipboard) return this.reply(id, null);
    this.l.gtk.gtk_clipboard_request_image(
      this.clipboard,
      this.onImage.pointer,
      Deno.UnsafePointer.create(BigInt(id)),
    );
  }

  /** The pixbuf (GTK's, not ours to free) as PNG, bounded. */
  private encode(pixbuf: Deno.PointerValue): ClipboardImageReply {
    if (!pixbuf) return null;
    const { pixbuf: px, glib } = this.l;
    if (px.gdk_pixbuf_get_width(pixbuf) * px.gdk_pixbuf_get_height(pixbuf) > MAX_PIXELS) {
      return { error: "too-large" };
    }
    const buffer = new BigUint64Array(1);
    const size = new BigUint64Array(1);
    if (!px.gdk_pixbuf_save_to_bufferv(pixbuf, buffer, size, cstr("png"), null, null, null)) {
      return null;
    }
    const data = Deno.UnsafePointer.create(buffer[0]);
    if (!data) return null;
    try {
      const n = Number(size[0]);
      if (n > COMPOSER_LIMITS.imageBytes) return { error: "too-large" };
      const bytes = new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(data, n).slice(0));
      return { png: Buffer.from(bytes).toString("base64") };
    } finally {
      glib.g_free(data);
    }
  }

  private reply(id: number, value: ClipboardImageReply): void {
    replyToPage(this.l, this.view(), id, value);
  }
}
