/**
 * "Add project" in the native window: the system's folder picker (GtkFileChooserNative,
 * a portal's dialog where there is one) for a page of the app, its answer handed back to
 * the page. The page then opens that folder in its own folder browser, so the server
 * still checks the path as it does for a typed one.
 */
import { cstr, type GtkLibs } from "./gtk_ffi.ts";
import { linkTarget } from "./navigation.ts";
import { replyToPage } from "./page_reply.ts";

const ACTION_SELECT_FOLDER = 2;
const RESPONSE_ACCEPT = -3;

export class FolderPicker {
  private dialogs = new Map<bigint, { id: number }>();
  // One callback for every dialog; kept as long as the window.
  private onResponse: Deno.UnsafeCallback<
    { readonly parameters: readonly ["pointer", "i32", "pointer"]; readonly result: "void" }
  >;

  constructor(
    private l: GtkLibs,
    private win: Deno.PointerValue,
    private view: () => Deno.PointerValue,
    private appUrl: string,
  ) {
    this.onResponse = new Deno.UnsafeCallback(
      { parameters: ["pointer", "i32", "pointer"], result: "void" } as const,
      (dialog, response) => this.answered(dialog, response),
    );
  }

  /** Only the app's own page gets a folder (not a page a link led to). */
  open(id: number, title: string): void {
    const uri = this.l.webkit.webkit_web_view_get_uri(this.view());
    const current = uri ? Deno.UnsafePointerView.getCString(uri) : "";
    if (linkTarget(current, this.appUrl) !== "app") return this.reply(id, null);
    const dialog = this.l.gtk.gtk_file_chooser_native_new(
      cstr(title || "ReinAgent"),
      this.win,
      ACTION_SELECT_FOLDER,
      cstr("_Open"),
      cstr("_Cancel"),
    );
    if (!dialog) return this.reply(id, null);
    this.dialogs.set(BigInt(Deno.UnsafePointer.value(dialog)), { id });
    this.l.gobject.g_signal_connect_data(
      dialog,
      cstr("response"),
      this.onResponse.pointer,
      null,
      null,
      0,
    );
    this.l.gtk.gtk_native_dialog_show(dialog);
  }

  private answered(dialog: Deno.PointerValue, response: number): void {
    const key = BigInt(Deno.UnsafePointer.value(dialog));
    const pending = this.dialogs.get(key);
    this.dialogs.delete(key);
    if (!pending) return;
    let path: string | null = null;
    if (response === RESPONSE_ACCEPT) {
      const p = this.l.gtk.gtk_file_chooser_get_filename(dialog);
      if (p) {
        path = Deno.UnsafePointerView.getCString(p);
        this.l.glib.g_free(p);
      }
    }
    this.reply(pending.id, path);
    this.l.gobject.g_object_unref(dialog);
  }

  private reply(id: number, path: string | null): void {
    replyToPage(this.l, this.view(), id, path);
  }
}
