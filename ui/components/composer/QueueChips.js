/**
 * The steering queue above the composer: messages sent while the task ran, waiting
 * for the run to complete. Each can be removed; when the task is idle (after a stop
 * or an error) each can also be sent now.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { queue, queueBusy, removeQueued, sendQueued } from "../../state/queue.js";
import { isRunning } from "../../state/run_actions.js";
import { connState } from "../../state/connection.js";
import { IconX } from "../RunIcons.js";
import { IconSend } from "../Icons.js";
import { IconClock } from "./ComposerIcons.js";

export function QueueChips() {
  const list = queue.value;
  if (!list.length) return null;
  const running = isRunning.value;
  const offline = connState.value !== "open";
  return html`
    <section class="queue" aria-label=${t("queue.label")} data-testid="queue">
      <p class="queue-head">
        <${IconClock} size=${14} />
        <span>${running
          ? t("queue.waiting", { n: list.length })
          : t("queue.idle", { n: list.length })}</span>
      </p>
      <ul class="queue-list">
        ${list.map((q) => {
          const busy = queueBusy.value.has(q.id);
          return html`
            <li class="queue-chip" key=${q.id} data-testid="queue-chip" data-id=${q.id}>
              <span class="queue-text" title=${q.text}>${q.text}</span>
              ${q.attachments.length > 0 && html`
                <span class="queue-att">${t("queue.attachments", {
                  n: q.attachments.length,
                })}</span>
              `}
              ${!running && html`
                <button
                  type="button"
                  class="queue-btn"
                  data-testid="queue-send"
                  aria-label=${t("queue.sendNow")}
                  title=${t("queue.sendNow")}
                  disabled=${busy || offline}
                  onClick=${() => sendQueued(q.id)}
                >
                  <${IconSend} size=${14} />
                </button>
              `}
              <button
                type="button"
                class="queue-btn"
                data-testid="queue-remove"
                aria-label=${t("queue.remove")}
                title=${t("queue.remove")}
                disabled=${busy || offline}
                onClick=${() => removeQueued(q.id)}
              >
                <${IconX} size=${14} />
              </button>
            </li>
          `;
        })}
      </ul>
    </section>
  `;
}
