/** Pure helpers of Settings → Remote access and the pair-again screen (tested in Deno). */

/**
 * The token in a pasted link (or a bare token), or "" when there is none. Only the
 * token is used: the pasted link's host is never followed.
 * @param {string} text
 */
export function tokenFromLink(text) {
  const s = text.trim();
  if (!s) return "";
  try {
    return new URL(s, "http://x/").searchParams.get("token") ?? (/^[\w-]{16,}$/.test(s) ? s : "");
  } catch {
    return "";
  }
}

/**
 * A link as shown on screen: the token cut to its first 4 characters (Copy copies it all).
 * @param {string} url
 */
export const shownUrl = (url) => url.replace(/token=([^&]{4})[^&]*/, "token=$1…");
