/**
 * The terminal's code, bundled on its own (ui/dist/terminal.js) and loaded only when a
 * terminal is first shown, so the main bundle does not carry xterm.js.
 */
export { Terminal } from "@xterm/xterm";
export { FitAddon } from "@xterm/addon-fit";
export { WebLinksAddon } from "@xterm/addon-web-links";
import css from "@xterm/xterm/css/xterm.css" with { type: "text" };
export { css };
