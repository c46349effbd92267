/**
 * The one `html` tagged template used by every component (htm bound to Preact's `h`).
 * No JSX and no build-time transform: htm parses the templates at run time (cached).
 *
 * @example
 * import { html } from "../html.js";
 * const Hello = ({ name }) => html`<p>Hello ${name}</p>`;
 */
import { h } from "preact";
import htm from "htm";

/** @type {(strings: TemplateStringsArray, ...values: any[]) => any} */
export const html = /** @type {any} */ (htm).bind(h);
