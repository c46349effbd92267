/**
 * The native desktop window on Linux: a GTK 3 window titled "ReinAgent" with the app's
 * icon and one WebKitWebView showing the server's page, its size and position restored
 * from and saved to the data dir. Runs in the window's own child process; Deno's event
 * loop drives GLib by pumping `g_main_context_iteration(null, 0)` on a timer.
 */
import { cstr, type GtkLibs, openGtkLibs } from "./gtk_ffi.ts";
import {
  clampGeometry,
  type GeometryLoad,
  loadGeometry,
  onScreen,
  sameGeometry,
  saveGeometry,
  type WindowGeometry,
} from "./geometry.ts";
import { appIconPng } from "./icon.ts";
import { PAGE_BRIDGE_SCRIPT, parsePageMessage } from "./page_bridge.ts";
import type { ChildEvent } from "./protocol.ts";
import { linkTarget } from "./navigation.ts";
import { FolderPicker } from "./folder_picker.ts";
import { ClipboardImage } from "./clipboard_image.ts";

const GTK_WINDOW_TOPLEVEL = 0;
const GTK_WIN_POS_CENTER = 1;
const INJECT_TOP_FRAME = 1;
const INJECT_AT_DOCUMENT_END = 1;
const LOAD_FINISHED = 3;
const HW_ACCELERATION_NEVER = 2;
const POLICY_NAVIGATION = 0;
const POLICY_NEW_WINDOW = 1;
/** Pump often while GTK has work (input, painting), less when it has been idle a while. */
const PUMP_BUSY_MS = 8;
const PUMP_IDLE_MS = 40;
const IDLE_AFTER_MS = 2000;
const GEOMETRY_POLL_MS = 500;

export interface NativeStart {
  url: string;
  home: string;
  emit(e: ChildEvent): void;
}

/** GTK, WebKit and a display that opens: the versions, or why not. */
export function probeGtk(): { ok: true; versions: string } | { ok: false; reason: string } {
  const libs = openGtkLibs();
  if ("error" in libs) return { ok: false, reason: `cannot load ${libs.error}` };
  if (!libs.gtk.gtk_init_check(null, null)) {
    return { ok: false, reason: `GTK cannot open the display ${Deno.env.get("DISPLAY") ?? ""}` };
  }
  return { ok: true, versions: versionsOf(libs) };
}

function versionsOf(l: GtkLibs): string {
  const w = l.webkit;
  return `WebKitGTK ${w.webkit_get_major_version()}.${w.webkit_get_minor_version()}.${w.webkit_get_micro_version()}, GTK ${l.gtk.gtk_get_major_version()}.${l.gtk.gtk_get_minor_version()}`;
}

/** Opens the window; resolves only when it failed to start (else the process exits). */
export async function runGtkWindow(s: NativeStart): Promise<string> {
  const libs = openGtkLibs();
  if ("error" in libs) return `cannot load ${libs.error}`;
  const { glib, gobject, gtk, webkit } = libs;
  glib.g_set_prgname(cstr("reinagent")); // the WM_CLASS docks and taskbars group by
  glib.g_set_application_name(cstr("ReinAgent"));
  if (!gtk.gtk_init_check(null, null)) {
    return `GTK cannot open the display ${Deno.env.get("DISPLAY") ?? "(DISPLAY unset)"}`;
  }
  const saved: GeometryLoad = await loadGeometry(s.home);
  if (saved.kind === "invalid") {
    s.emit({ event: "note", text: `${saved.problem}: default size, and not saved over` });
  }
  const win = gtk.gtk_window_new(GTK_WINDOW_TOPLEVEL);
  if (!win) return "gtk_window_new failed";
  gtk.gtk_window_set_title(win, cstr("ReinAgent"));
  placeWindow(libs, win, saved.geometry);
  setIcon(libs, win, s.emit);

  // Kept referenced as long as the window lives: GTK calls them by address.
  const callbacks: { pointer: Deno.PointerObject }[] = [];
  const connect = (obj: Deno.PointerValue, signal: string, cb: { pointer: Deno.PointerObject }) => {
    callbacks.push(cb);
    gobject.g_signal_connect_data(obj, cstr(signal), cb.pointer, null, null, 0);
  };

  const ucm = webkit.webkit_user_content_manager_new();
  webkit.webkit_user_content_manager_register_script_message_handler(ucm, cstr("reinagent"));
  const started = performance.now();
  connect(
    ucm,
    "script-message-received::reinagent",
    new Deno.UnsafeCallback(
      { parameters: ["pointer", "pointer", "pointer"], result: "void" } as const,
      (_ucm, result) => {
        const msg = parsePageMessage(jsResultText(libs, result));
        if (msg?.kind === "pick-folder") picker.open(msg.id, msg.title);
        if (msg?.kind === "clipboard-image") clipboard.request(msg.id);
        if (msg?.kind === "painted") {
          s.emit({
            event: "painted",
            ms: Math.round(performance.now() - started),
            pageMs: msg.pageMs,
            mountedMs: msg.mountedMs,
          });
        }
      },
    ),
  );
  webkit.webkit_user_content_manager_add_script(
    ucm,
    webkit.webkit_user_script_new(
      cstr(PAGE_BRIDGE_SCRIPT),
      INJECT_TOP_FRAME,
      INJECT_AT_DOCUMENT_END,
      null,
      null,
    ),
  );
  const view = webkit.webkit_web_view_new_with_user_content_manager(ucm);
  if (!view) return "webkit_web_view_new failed";
  const picker = new FolderPicker(libs, win, () => view, s.url);
  const clipboard = new ClipboardImage(libs, () => view, s.url);
  connect(
    view,
    "key-press-event",
    new Deno.UnsafeCallback(
      { parameters: ["pointer", "pointer", "pointer"], result: "i32" } as const,
      (_view, event) => {
        clipboard.keyPressed(event);
        return 0; // WebKit still gets the key (its paste event reaches the page)
      },
    ),
  );
  // A text UI needs no GPU compositing, and without it WebKit's page process takes about
  // 100 MB less; REINAGENT_WINDOW_GPU=1 turns it back on (WebKit's own choice).
  if (Deno.env.get("REINAGENT_WINDOW_GPU") !== "1") {
    webkit.webkit_settings_set_hardware_acceleration_policy(
      webkit.webkit_web_view_get_settings(view),
      HW_ACCELERATION_NEVER,
    );
  }
  const notificationType = webkit.webkit_notification_permission_request_get_type();
  const onPermission = new Deno.UnsafeCallback(
    { parameters: ["pointer", "pointer", "pointer"], result: "i32" } as const,
    (_view, request) => {
      // The app's own system notifications; any other request (camera, location…) no.
      if (gobject.g_type_check_instance_is_a(request, notificationType)) {
        webkit.webkit_permission_request_allow(request);
      } else webkit.webkit_permission_request_deny(request);
      return 1;
    },
  );
  const onPolicy = new Deno.UnsafeCallback(
    { parameters: ["pointer", "pointer", "i32", "pointer"], result: "i32" } as const,
    (_view, decision, type) => {
      if (type !== POLICY_NAVIGATION && type !== POLICY_NEW_WINDOW) return 0;
      const action = webkit.webkit_navigation_policy_decision_get_navigation_action(decision);
      const request = action ? webkit.webkit_navigation_action_get_request(action) : null;
      const uri = request ? webkit.webkit_uri_request_get_uri(request) : null;
      const target = uri ? Deno.UnsafePointerView.getCString(uri) : "";
      if (linkTarget(target, s.url) !== "external") return 0; // the app's own: WebKit goes on
      webkit.webkit_policy_decision_ignore(decision);
      s.emit({ event: "open-external", url: target });
      return 1;
    },
  );
  // The app's own page in a new window (target=_blank, window.open): a window of its own
  // sharing the session (cookie), shown once WebKit says it is ready.
  const popups = new Map<bigint, Deno.PointerValue>();
  const keyOf = (p: Deno.PointerValue) => Deno.UnsafePointer.value(p) as bigint;
  const onReadyToShow = new Deno.UnsafeCallback(
    { parameters: ["pointer", "pointer"], result: "void" } as const,
    (popupView) => {
      const w = popups.get(keyOf(popupView));
      if (w) gtk.gtk_widget_show_all(w);
    },
  );
  const onClose = new Deno.UnsafeCallback(
    { parameters: ["pointer", "pointer"], result: "void" } as const,
    (popupView) => {
      const w = popups.get(keyOf(popupView));
      popups.delete(keyOf(popupView));
      if (w) gtk.gtk_widget_destroy(w);
    },
  );
  const onCreate = new Deno.UnsafeCallback(
    { parameters: ["pointer", "pointer", "pointer"], result: "pointer" } as const,
    (parentView) => {
      const popupView = webkit.webkit_web_view_new_with_related_view(parentView);
      if (!popupView) return null;
      wire(popupView);
      const w = gtk.gtk_window_new(GTK_WINDOW_TOPLEVEL);
      gtk.gtk_window_set_title(w, cstr("ReinAgent"));
      gtk.gtk_window_set_default_size(w, 1000, 700);
      setIcon(libs, w, s.emit);
      gtk.gtk_container_add(w, popupView);
      popups.set(keyOf(popupView), w);
      connect(popupView, "ready-to-show", onReadyToShow);
      connect(popupView, "close", onClose);
      return popupView;
    },
  );
  const wire = (v: Deno.PointerValue) => {
    connect(v, "permission-request", onPermission);
    connect(v, "decide-policy", onPolicy);
    connect(v, "create", onCreate);
  };
  wire(view);
  connect(
    view,
    "load-changed",
    new Deno.UnsafeCallback(
      { parameters: ["pointer", "i32", "pointer"], result: "void" } as const,
      (_view, event) => {
        if (event === LOAD_FINISHED) {
          s.emit({ event: "loaded", ms: Math.round(performance.now() - started) });
        }
      },
    ),
  );

  const geometry = new GeometryKeeper(libs, win, s.home, saved);
  let closed = false;
  connect(
    win,
    "delete-event",
    new Deno.UnsafeCallback(
      { parameters: ["pointer", "pointer", "pointer"], result: "i32" } as const,
      () => {
        geometry.read(); // while the window still has its size
        return 0; // go on closing
      },
    ),
  );
  connect(
    win,
    "destroy",
    new Deno.UnsafeCallback({ parameters: ["pointer", "pointer"], result: "void" } as const, () => {
      closed = true;
    }),
  );

  gtk.gtk_container_add(win, view);
  webkit.webkit_web_view_load_uri(view, cstr(s.url));
  gtk.gtk_widget_show_all(win);
  s.emit({ event: "ready", backend: versionsOf(libs) });

  const finish = async () => {
    await geometry.save();
    Deno.exit(0);
  };
  // The server stops (or a user's kill): keep the last geometry, then end.
  Deno.addSignalListener("SIGTERM", () => void finish());
  Deno.addSignalListener("SIGINT", () => void finish());

  let lastBusy = performance.now();
  let lastPoll = 0;
  const pump = () => {
    let n = 0;
    while (n < 200 && glib.g_main_context_iteration(null, 0)) n++;
    const now = performance.now();
    if (n) lastBusy = now;
    if (closed) return void finish();
    if (now - lastPoll >= GEOMETRY_POLL_MS) {
      lastPoll = now;
      geometry.read();
      void geometry.save();
    }
    setTimeout(pump, now - lastBusy > IDLE_AFTER_MS ? PUMP_IDLE_MS : PUMP_BUSY_MS);
  };
  pump();
  return await new Promise<string>(() => {}); // the window lives until the process ends
}

function placeWindow(l: GtkLibs, win: Deno.PointerValue, g: WindowGeometry) {
  l.gtk.gtk_window_set_default_size(win, g.width, g.height);
  const screen = { width: l.gdk.gdk_screen_width(), height: l.gdk.gdk_screen_height() };
  // A place saved on a screen that is gone (a monitor unplugged) would hide the window.
  if (g.x !== undefined && g.y !== undefined && onScreen(g, screen)) {
    l.gtk.gtk_window_move(win, g.x, g.y);
  } else l.gtk.gtk_window_set_position(win, GTK_WIN_POS_CENTER);
  if (g.maximized) l.gtk.gtk_window_maximize(win);
}

function setIcon(l: GtkLibs, win: Deno.PointerValue, emit: NativeStart["emit"]) {
  const png = appIconPng();
  const loader = l.pixbuf.gdk_pixbuf_loader_new();
  const ok = l.pixbuf.gdk_pixbuf_loader_write(loader, png, BigInt(png.length), null) &&
    l.pixbuf.gdk_pixbuf_loader_close(loader, null);
  const pixbuf = ok ? l.pixbuf.gdk_pixbuf_loader_get_pixbuf(loader) : null;
  if (pixbuf) l.gtk.gtk_window_set_icon(win, pixbuf);
  else emit({ event: "note", text: "the app icon could not be decoded" });
  l.gobject.g_object_unref(loader); // the window holds its own reference to the pixbuf
}

/** The string a page posted (4.1 passes a WebKitJavascriptResult*, not a JSCValue*). */
function jsResultText(l: GtkLibs, result: Deno.PointerValue): string {
  const value = l.webkit.webkit_javascript_result_get_js_value(result);
  const p = value ? l.jsc.jsc_value_to_string(value) : null;
  if (!p) return "";
  const text = Deno.UnsafePointerView.getCString(p);
  l.glib.g_free(p);
  return text;
}

/** Follows the window's size and position; saves them when they changed. */
class GeometryKeeper {
  private current: WindowGeometry;
  private saved: WindowGeometry | null;
  private writable: boolean;
  private saving: Promise<void> | null = null;
  private w = new Int32Array(1);
  private h = new Int32Array(1);

  constructor(
    private l: GtkLibs,
    private win: Deno.PointerValue,
    private home: string,
    load: GeometryLoad,
  ) {
    this.current = { ...load.geometry };
    this.saved = load.kind === "saved" ? load.geometry : null;
    this.writable = load.kind !== "invalid"; // a broken file is the user's to fix
  }

  read(): void {
    const { gtk } = this.l;
    const maximized = Boolean(gtk.gtk_window_is_maximized(this.win));
    // A maximized window keeps the size and place it returns to.
    if (maximized) {
      this.current = { ...this.current, maximized: true };
      return;
    }
    gtk.gtk_window_get_size(this.win, this.w, this.h);
    const size = { width: this.w[0], height: this.h[0] };
    gtk.gtk_window_get_position(this.win, this.w, this.h);
    this.current = clampGeometry({ ...size, x: this.w[0], y: this.h[0] });
  }

  async save(): Promise<void> {
    if (!this.writable || this.saving) return await this.saving ?? undefined;
    if (this.saved && sameGeometry(this.saved, this.current)) return;
    const g = { ...this.current };
    this.saving = saveGeometry(this.home, g)
      .then(() => void (this.saved = g))
      .catch(() => void (this.writable = false)) // out of range or unwritable: keep the old
      .finally(() => void (this.saving = null));
    await this.saving;
  }
}
