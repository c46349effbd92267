/** Base URL rule: stored bare; `/v1` is appended exactly once. */

/** Normalises a user-entered base URL: no trailing slashes, no trailing `/v1`. */
export function normaliseBaseUrl(input: string): string {
  let u = input.trim().replace(/\/+$/, "");
  if (u.endsWith("/v1")) u = u.slice(0, -3).replace(/\/+$/, "");
  return u;
}

/** `base` + `/v1` (OpenAI SDK base and Anthropic paths), never `/v1/v1`. */
export function v1(base: string): string {
  return `${normaliseBaseUrl(base)}/v1`;
}
