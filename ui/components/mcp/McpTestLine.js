/**
 * The result of a test or restart under a server's row: "Connected · 13 tools · 412 ms"
 * or where it failed (config / spawn / initialize / tools_list) with the error and the
 * server's last stderr lines.
 *
 * @typedef {import("../../state/mcp.js").TestState} TestState
 */
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";

/** @param {{test: TestState}} props */
export function McpTestLine({ test }) {
  if ("running" in test) {
    return html`<div class="mcp-test" data-testid="mcp-test-result" data-ok="running">
      <span class="spinner" aria-hidden="true"></span> ${t("mcp.testing")}
    </div>`;
  }
  if (test.ok) {
    const version = test.protocolVersion ? ` · ${test.protocolVersion}` : "";
    return html`
      <div class="mcp-test mcp-test-ok" data-testid="mcp-test-result" data-ok="true">
        <span>${t("mcp.testOk", {
          tools: tn("mcp.tools", test.toolCount),
          ms: test.durationMs,
        })}<span
              class="mcp-faint"
            >${version}</span></span>
      </div>
    `;
  }
  const tail = "stderrTail" in test ? test.stderrTail : [];
  return html`<div class="mcp-test mcp-test-bad" data-testid="mcp-test-result" data-ok="false">
    <div>${
    t("mcp.testFailed", {
      phase: t(/** @type {const} */ (`mcp.phase.${test.phase}`)),
    })
  } ${
    "durationMs" in test ? html`<span class="mcp-faint">(${test.durationMs} ms)</span>` : ""
  }</div>
    <div class="mcp-error">${test.error}</div>
    ${
    tail.length > 0 &&
    html`<pre class="tool-out mcp-stderr" data-testid="mcp-stderr">${
      tail.slice(-12).join("\n")
    }</pre>`
  }
  </div>`;
}
