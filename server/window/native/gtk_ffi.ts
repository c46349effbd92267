/**
 * The few GTK 3 / GLib / WebKitGTK 4.1 functions the native window calls, opened with
 * `Deno.dlopen`. Loaded only in the window's child process (never in the server: the
 * libraries cost tens of MB and a crash in them must not touch runs).
 */

/** Sonames of the system libraries (Debian: libwebkit2gtk-4.1-0, libgtk-3-0). */
export const GTK_LIBS = {
  glib: "libglib-2.0.so.0",
  gobject: "libgobject-2.0.so.0",
  gtk: "libgtk-3.so.0",
  gdk: "libgdk-3.so.0",
  pixbuf: "libgdk_pixbuf-2.0.so.0",
  webkit: "libwebkit2gtk-4.1.so.0",
  jsc: "libjavascriptcoregtk-4.1.so.0",
} as const;

const glibSymbols = {
  g_main_context_iteration: { parameters: ["pointer", "i32"], result: "i32" },
  g_set_prgname: { parameters: ["buffer"], result: "void" },
  g_set_application_name: { parameters: ["buffer"], result: "void" },
  g_free: { parameters: ["pointer"], result: "void" },
} as const;

const gobjectSymbols = {
  g_signal_connect_data: {
    parameters: ["pointer", "buffer", "function", "pointer", "pointer", "i32"],
    result: "u64",
  },
  g_object_unref: { parameters: ["pointer"], result: "void" },
  g_type_check_instance_is_a: { parameters: ["pointer", "usize"], result: "i32" },
} as const;

const gtkSymbols = {
  gtk_init_check: { parameters: ["pointer", "pointer"], result: "i32" },
  gtk_window_new: { parameters: ["i32"], result: "pointer" },
  gtk_window_set_title: { parameters: ["pointer", "buffer"], result: "void" },
  gtk_window_set_default_size: { parameters: ["pointer", "i32", "i32"], result: "void" },
  gtk_window_set_position: { parameters: ["pointer", "i32"], result: "void" },
  gtk_window_move: { parameters: ["pointer", "i32", "i32"], result: "void" },
  gtk_window_get_size: { parameters: ["pointer", "buffer", "buffer"], result: "void" },
  gtk_window_get_position: { parameters: ["pointer", "buffer", "buffer"], result: "void" },
  gtk_window_maximize: { parameters: ["pointer"], result: "void" },
  gtk_window_is_maximized: { parameters: ["pointer"], result: "i32" },
  gtk_window_set_icon: { parameters: ["pointer", "pointer"], result: "void" },
  gtk_container_add: { parameters: ["pointer", "pointer"], result: "void" },
  gtk_widget_show_all: { parameters: ["pointer"], result: "void" },
  gtk_widget_destroy: { parameters: ["pointer"], result: "void" },
  gtk_file_chooser_native_new: {
    parameters: ["buffer", "pointer", "i32", "buffer", "buffer"],
    result: "pointer",
  },
  gtk_native_dialog_show: { parameters: ["pointer"], result: "void" },
  gtk_file_chooser_get_filename: { parameters: ["pointer"], result: "pointer" },
  gtk_clipboard_get: { parameters: ["pointer"], result: "pointer" },
  gtk_clipboard_request_image: { parameters: ["pointer", "function", "pointer"], result: "void" },
  gtk_get_major_version: { parameters: [], result: "u32" },
  gtk_get_minor_version: { parameters: [], result: "u32" },
} as const;

const gdkSymbols = {
  gdk_screen_width: { parameters: [], result: "i32" },
  gdk_screen_height: { parameters: [], result: "i32" },
  gdk_atom_intern: { parameters: ["buffer", "i32"], result: "pointer" },
} as const;

const pixbufSymbols = {
  gdk_pixbuf_loader_new: { parameters: [], result: "pointer" },
  gdk_pixbuf_loader_write: { parameters: ["pointer", "buffer", "usize", "pointer"], result: "i32" },
  gdk_pixbuf_loader_close: { parameters: ["pointer", "pointer"], result: "i32" },
  gdk_pixbuf_loader_get_pixbuf: { parameters: ["pointer"], result: "pointer" },
  gdk_pixbuf_get_width: { parameters: ["pointer"], result: "i32" },
  gdk_pixbuf_get_height: { parameters: ["pointer"], result: "i32" },
  // The non-variadic form: FFI cannot call gdk_pixbuf_save_to_buffer's "..." safely.
  gdk_pixbuf_save_to_bufferv: {
    parameters: ["pointer", "buffer", "buffer", "buffer", "pointer", "pointer", "pointer"],
    result: "i32",
  },
} as const;

const webkitSymbols = {
  webkit_get_major_version: { parameters: [], result: "u32" },
  webkit_get_minor_version: { parameters: [], result: "u32" },
  webkit_get_micro_version: { parameters: [], result: "u32" },
  webkit_user_content_manager_new: { parameters: [], result: "pointer" },
  webkit_user_content_manager_register_script_message_handler: {
    parameters: ["pointer", "buffer"],
    result: "i32",
  },
  webkit_user_content_manager_add_script: { parameters: ["pointer", "pointer"], result: "void" },
  webkit_user_script_new: {
    parameters: ["buffer", "i32", "i32", "pointer", "pointer"],
    result: "pointer",
  },
  webkit_web_view_new_with_user_content_manager: { parameters: ["pointer"], result: "pointer" },
  webkit_web_view_get_settings: { parameters: ["pointer"], result: "pointer" },
  webkit_settings_set_hardware_acceleration_policy: {
    parameters: ["pointer", "i32"],
    result: "void",
  },
  webkit_web_view_get_uri: { parameters: ["pointer"], result: "pointer" },
  webkit_web_view_evaluate_javascript: {
    parameters: [
      "pointer",
      "buffer",
      "isize",
      "pointer",
      "pointer",
      "pointer",
      "pointer",
      "pointer",
    ],
    result: "void",
  },
  webkit_web_view_load_uri: { parameters: ["pointer", "buffer"], result: "void" },
  webkit_web_view_new_with_related_view: { parameters: ["pointer"], result: "pointer" },
  webkit_navigation_policy_decision_get_navigation_action: {
    parameters: ["pointer"],
    result: "pointer",
  },
  webkit_navigation_action_get_request: { parameters: ["pointer"], result: "pointer" },
  webkit_uri_request_get_uri: { parameters: ["pointer"], result: "pointer" },
  webkit_policy_decision_ignore: { parameters: ["pointer"], result: "void" },
  webkit_javascript_result_get_js_value: { parameters: ["pointer"], result: "pointer" },
  webkit_notification_permission_request_get_type: { parameters: [], result: "usize" },
  webkit_permission_request_allow: { parameters: ["pointer"], result: "void" },
  webkit_permission_request_deny: { parameters: ["pointer"], result: "void" },
} as const;

const jscSymbols = {
  jsc_value_to_string: { parameters: ["pointer"], result: "pointer" },
} as const;

export interface GtkLibs {
  glib: Deno.DynamicLibrary<typeof glibSymbols>["symbols"];
  gobject: Deno.DynamicLibrary<typeof gobjectSymbols>["symbols"];
  gtk: Deno.DynamicLibrary<typeof gtkSymbols>["symbols"];
  gdk: Deno.DynamicLibrary<typeof gdkSymbols>["symbols"];
  pixbuf: Deno.DynamicLibrary<typeof pixbufSymbols>["symbols"];
  webkit: Deno.DynamicLibrary<typeof webkitSymbols>["symbols"];
  jsc: Deno.DynamicLibrary<typeof jscSymbols>["symbols"];
}

/** Opens every library; the first that fails is named in the error. */
export function openGtkLibs(): GtkLibs | { error: string } {
  const open = <S extends Deno.ForeignLibraryInterface>(name: string, symbols: S) => {
    try {
      return Deno.dlopen(name, symbols).symbols;
    } catch (e) {
      throw new Error(`${name}: ${(e as Error).message}`);
    }
  };
  try {
    return {
      glib: open(GTK_LIBS.glib, glibSymbols),
      gobject: open(GTK_LIBS.gobject, gobjectSymbols),
      gtk: open(GTK_LIBS.gtk, gtkSymbols),
      gdk: open(GTK_LIBS.gdk, gdkSymbols),
      pixbuf: open(GTK_LIBS.pixbuf, pixbufSymbols),
      webkit: open(GTK_LIBS.webkit, webkitSymbols),
      jsc: open(GTK_LIBS.jsc, jscSymbols),
    };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** A NUL-terminated C string. */
export const cstr = (s: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(s + "\0");
