/**
 * Settings → About: version, data folder, database (path and health), how shell
 * commands and file tools are sandboxed (said plainly when commands run unsandboxed),
 * the rewind checkpoint store (size and cap), the server's memory and the
 * server process. Loaded from the server (`about.info`) when it opens, then refreshed every
 * few seconds while it stays open, so the memory row is live.
 *
 * @typedef {import("../../../protocol/index.ts").AboutInfo} AboutInfo
 */
import { useEffect, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { request } from "../../state/connection.js";
import { copyText } from "../CodeBlock.js";
import { UpdateLine } from "../update/UpdateLine.js";
import { formatSize } from "../../state/attachments.js";

/** How often the open page asks again (memory and checkpoint size change as tasks run). */
const REFRESH_MS = 2000;

/** @param {AboutInfo} a */
function shellText(a) {
  const s = a.shellSandbox;
  if (!s.available) return t("about.shellNone", { reason: s.reason ?? "bwrap" });
  if (s.level === "off") return t("about.shellOff");
  const text = t("about.shellBwrap", {
    version: s.version ?? s.path ?? "bwrap",
    level: s.level ?? "?",
    network: s.network ? t("about.on") : t("about.off"),
  });
  return s.networkIsolation === false
    ? `${text}; ${t("about.shellNoNet", { reason: s.reason ?? "" })}`
    : text;
}

/** @param {AboutInfo} a */
function rows(a) {
  return [
    ["version", t("about.version"), a.version],
    ["home", t("about.home"), a.home],
    [
      "database",
      t("about.database"),
      `${a.store.path} — ${
        a.store.ok ? t("about.dbOk") : t("about.dbBad", { error: a.store.error ?? "?" })
      }`,
    ],
    ["shell", t("about.shell"), shellText(a)],
    ["files", t("about.files"), t("about.filesDetail")],
    [
      "checkpoints",
      t("about.checkpoints"),
      a.checkpoints
        ? t("about.checkpointsDetail", {
          size: formatSize(a.checkpoints.bytes),
          cap: formatSize(a.checkpoints.capBytes),
          blobs: a.checkpoints.blobs,
        })
        : t("about.checkpointsNone"),
    ],
    [
      "memory",
      t("about.memory"),
      a.memory.peakRssBytes === null
        ? t("about.memoryNoPeak", { rss: formatSize(a.memory.rssBytes) })
        : t("about.memoryDetail", {
          rss: formatSize(a.memory.rssBytes),
          peak: formatSize(a.memory.peakRssBytes),
        }),
    ],
    [
      "process",
      t("about.process"),
      t("about.processDetail", {
        pid: a.pid,
        clients: a.clients,
        platform: a.platform,
        deno: a.deno,
      }),
    ],
  ];
}

export function AboutSettings() {
  const [st, setSt] = useState(
    /** @type {{state: "loading"} | {state: "ok", info: AboutInfo} | {state: "error", error: string}} */ ({
      state: "loading",
    }),
  );
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    let live = true;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    let loaded = false;
    const load = () =>
      request("about.info", {}).then(
        (info) => {
          loaded = true;
          if (live) setSt({ state: "ok", info });
        },
        // A failed refresh keeps the numbers shown; only a failed first load is an error.
        (e) => live && !loaded && setSt({ state: "error", error: String(e?.message ?? e) }),
      ).finally(() => {
        if (live) timer = setTimeout(load, REFRESH_MS);
      });
    load();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, []);
  if (st.state === "loading") return html`<p class="settings-note">${t("about.loading")}</p>`;
  if (st.state === "error") {
    return html`<p class="settings-note field-error" role="alert">${
      t("about.error", { error: st.error })
    }</p>`;
  }
  const list = rows(st.info);
  const shellWarn = !st.info.shellSandbox.available || st.info.shellSandbox.level === "off";
  return html`
    <section class="settings-section about" data-testid="about-settings" aria-labelledby="about-title">
      <h2 class="about-title" id="about-title">${t("about.title")}</h2>
      <${UpdateLine} />
      <dl class="about-list">
        ${list.map(([id, label, value]) =>
          html`
            <div class="about-row" data-testid=${`about-${id}`}>
              <dt>${label}</dt>
              <dd class=${id === "shell" && shellWarn ? "about-warn" : ""}>${value}</dd>
            </div>
          `
        )}
      </dl>
      <button
        type="button"
        class="btn btn-small"
        data-testid="about-copy"
        onClick=${() =>
          copyText(list.map(([, l, v]) => `${l}: ${v}`).join("\n")).then(
            () => setCopied(true),
            () => setCopied(false),
          )}
      >
        <span aria-live="polite">${copied ? t("panel.copied") : t("about.copy")}</span>
      </button>
    </section>
  `;
}
