/**
 * An assistant's icon: the built-ins draw an SVG (no emoji font needed), a custom one
 * shows its own icon text (an emoji), else the generic assistant icon.
 *
 * @typedef {import("../../../protocol/index.ts").Assistant} Assistant
 */
import { html } from "../../html.js";
import { Icon, IconCode, IconGlobe, IconPencil, IconSpark } from "../Icons.js";

/** A person with a spark: the assistant (persona) icon. @param {{size?: number}} p */
export const IconAssistant = (p) =>
  html`
    <${Icon} ...${p} d=${[
      "M10 11a4 4 0 100-8 4 4 0 000 8z",
      "M3 21a7 7 0 0112.5-4.3",
      "M18 14l1 2.2 2.2 1-2.2 1-1 2.2-1-2.2-2.2-1 2.2-1z",
    ]} />
  `;

/** @type {Record<string, (p: {size?: number}) => any>} */
const BUILTIN_ICONS = {
  general: IconSpark,
  coder: IconCode,
  writer: IconPencil,
  translator: IconGlobe,
};

/** @param {{a: Assistant|null, size?: number}} props */
export function AssistantIcon({ a, size = 16 }) {
  const Svg = a?.builtin ? BUILTIN_ICONS[a.id] : undefined;
  return html`
    <span class="assistant-icon" aria-hidden="true">
      ${Svg
        ? html`<${Svg} size=${size} />`
        : a?.icon
        ? a.icon
        : html`<${IconAssistant} size=${size} />`}
    </span>
  `;
}
