/**
 * URL and entity helpers for the Markdown renderer. Only absolute http(s) and mailto
 * URLs become links; everything else (javascript:, data:, vbscript:, file:, relative
 * paths) is shown as plain text.
 */
import { decodeEntities as decodeNamed } from "../../protocol/html_entities.ts";

/**
 * Decodes HTML entities (all numeric ones with their `;`, a common named subset).
 * @param {string} s
 */
export const decodeEntities = (s) => decodeNamed(s, true);

const ALLOWED = new Set(["http", "https", "mailto"]);

/**
 * The URL to put in an `href`, or null when it must not be a link.
 * @param {string} raw destination as written in the Markdown source
 * @returns {string|null}
 */
export function safeUrl(raw) {
  const url = decodeEntities(String(raw)).trim();
  // Browsers ignore control characters and whitespace while reading a scheme
  // ("java\tscript:"), so check the scheme with them removed.
  // deno-lint-ignore no-control-regex
  const probe = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, "").toLowerCase();
  const m = /^([a-z][a-z0-9+.-]*):/.exec(probe);
  if (!m || !ALLOWED.has(m[1])) return null;
  if (m[1] !== "mailto" && !/^https?:\/\/[^/\s]/.test(probe)) return null;
  // deno-lint-ignore no-control-regex
  return url.replace(/[\u0000-\u001f\u007f]/g, "").replace(/\s/g, "%20");
}
