/**
 * `file:` URL → local path, as Node's `url.fileURLToPath` does for the URLs this program
 * builds from `import.meta.url` (`node:url` costs ~10 ms of Node compatibility code).
 */
export function fileUrlToPath(url: URL | string, windows = Deno.build.os === "windows"): string {
  const u = typeof url === "string" ? new URL(url) : url;
  if (u.protocol !== "file:") throw new TypeError(`not a file URL: ${u.href}`);
  // An encoded separator would become a different path than the URL names.
  if (/%2f/i.test(u.pathname) || (windows && /%5c/i.test(u.pathname))) {
    throw new TypeError(`file URL must not include encoded path separators: ${u.href}`);
  }
  const path = decodeURIComponent(u.pathname);
  if (!windows) {
    if (u.hostname) throw new TypeError(`file URL host must be empty: ${u.href}`);
    return path;
  }
  const local = path.replace(/^\/([A-Za-z]:)/, "$1").replaceAll("/", "\\");
  return u.hostname ? `\\\\${u.hostname}${local}` : local;
}
