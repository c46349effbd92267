/**
 * Where an authorization server sends the browser back after an MCP sign-in
 * (`/api/mcp/oauth/callback?code=…&state=…`). It cannot ask for our token: the cookie is
 * SameSite=Strict, so the redirect from another site arrives without it, and a phone that
 * opened the link may have none. The `state` is the credential instead — random, bound to
 * one sign-in, single use — and a wrong one counts as a failed attempt for the lockout.
 * The answer is a small page in the browser's language saying what happened.
 */
import type { McpManager } from "../mcp/manager.ts";

const TEXT = {
  en: {
    title: "MCP sign-in",
    ok: "Signed in to the MCP server “{id}”. You can close this page and go back to ReinAgent.",
    failed: "The sign-in did not work: {message}",
    denied: "The authorization server did not sign you in: {message}",
    back: "Back to ReinAgent",
  },
  zh: {
    title: "MCP 登录",
    ok: "已登录 MCP 服务器“{id}”。可以关闭此页面，回到 ReinAgent。",
    failed: "登录未成功：{message}",
    denied: "授权服务器未让你登录：{message}",
    back: "回到 ReinAgent",
  },
} as const;

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(
  req: Request,
  status: number,
  key: "ok" | "failed" | "denied",
  v: Record<string, string>,
) {
  const lang = /^\s*zh/i.test(req.headers.get("accept-language") ?? "") ? "zh" : "en";
  const t = TEXT[lang];
  const body = t[key].replace(/\{(\w+)\}/g, (_, k) => escape(v[k] ?? ""));
  const html =
    `<!doctype html><html lang="${lang === "zh" ? "zh-CN" : "en-US"}"><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width"><title>${t.title}</title>` +
    `<body style="font-family:system-ui;padding:2rem;max-width:40rem"><h1>${t.title}</h1>` +
    `<p data-result="${key}">${body}</p><p><a href="/">${t.back}</a></p></body></html>`;
  return new Response(html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "x-frame-options": "DENY",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
}

/** Handles the callback; `failed` is told of a state that matches no sign-in. */
export async function handleOAuthCallback(
  req: Request,
  url: URL,
  mcp: McpManager | undefined,
  failed: () => void,
): Promise<Response> {
  if (req.method !== "GET" || !mcp) return page(req, 404, "failed", { message: "not found" });
  const state = url.searchParams.get("state") ?? "";
  const code = url.searchParams.get("code") ?? "";
  const error = url.searchParams.get("error");
  if (error) {
    // Cut short: the description is the other server's text, shown as text only.
    const what = (url.searchParams.get("error_description") ?? error).slice(0, 300);
    return page(req, 400, "denied", { message: what });
  }
  if (!state || !code || state.length > 200 || code.length > 4096) {
    failed();
    return page(req, 400, "failed", { message: "the answer has no code or state" });
  }
  try {
    const id = await mcp.oauthFinish(state, code);
    return page(req, 200, "ok", { id });
  } catch (e) {
    if (/unknown or was already used/.test((e as Error).message)) failed();
    return page(req, 400, "failed", { message: (e as Error).message.slice(0, 300) });
  }
}
