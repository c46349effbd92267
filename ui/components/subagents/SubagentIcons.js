/** Icons of the sub-agent views (24×24 viewBox, `currentColor`, decorative). */
import { html } from "../../html.js";
import { Icon } from "../Icons.js";

/** A small robot: a sub-agent. @param {{size?: number}} p */
export const IconAgent = (p) =>
  html`
    <${Icon}
      ...${p}
      d=${[
        "M12 3v3",
        "M6 8h12v10H6z",
        "M9.5 12.5h.01",
        "M14.5 12.5h.01",
        "M10 15.5h4",
        "M3 12v3",
        "M21 12v3",
      ]}
    />
  `;

/** A filled square: stop. @param {{size?: number}} p */
export const IconStopSq = (p) => html`<${Icon} ...${p} d=${["M7 7h10v10H7z"]} />`;
