/**
 * The composer's attachment chips: image thumbnails or a file icon, name and size,
 * upload progress or the upload error, and a remove button.
 *
 * @typedef {import("../../state/attachments.js").Chip} Chip
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import {
  attachments,
  attachProblem,
  formatSize,
  removeAttachment,
  uploadUrl,
} from "../../state/attachments.js";
import { markDraftDirty } from "../../state/ui.js";
import { IconX } from "../RunIcons.js";
import { IconFile } from "./ComposerIcons.js";

/** @param {{chip: Chip}} props */
function ChipView({ chip }) {
  const pct = Math.round(chip.progress * 100);
  const status = chip.status === "uploading"
    ? t("attach.uploading", { pct })
    : chip.status === "error"
    ? t("attach.failed", { message: chip.error })
    : formatSize(chip.size);
  return html`
    <li
      class=${`att-chip att-${chip.status}`}
      data-testid="attachment-chip"
      data-kind=${chip.kind}
      data-status=${chip.status}
      title=${chip.status === "error" ? status : chip.name}
    >
      ${chip.kind === "image" && chip.id
        ? html`<img class="att-thumb" src=${
          uploadUrl(chip.id)
        } alt="" data-testid="attachment-thumb" />`
        : html`<span class="att-icon" aria-hidden="true"><${IconFile} size=${18} /></span>`}
      <span class="att-text">
        <span class="att-name">${chip.name}</span>
        <span class="att-meta" role=${chip.status === "error"
          ? "alert"
          : undefined}>${status}</span>
      </span>
      ${chip.status === "uploading" &&
        html`<span class="att-progress" style=${`--pct:${pct}%`} aria-hidden="true"></span>`}
      <button
        type="button"
        class="att-remove"
        data-testid="attachment-remove"
        aria-label=${t("attach.remove", { name: chip.name })}
        title=${t("attach.remove", { name: chip.name })}
        onClick=${() => {
          removeAttachment(chip.key);
          markDraftDirty();
        }}
      >
        <${IconX} size=${14} />
      </button>
    </li>
  `;
}

export function AttachmentChips() {
  const list = attachments.value;
  const problem = attachProblem.value;
  if (!list.length && !problem) return null;
  return html`
    <div class="att-area">
      ${list.length > 0 && html`
        <ul class="att-list" aria-label=${t("attach.list")} data-testid="attachments">
          ${list.map((c) => html`<${ChipView} key=${c.key} chip=${c} />`)}
        </ul>
      `}
      ${problem && html`
        <p class="att-problem" role="alert" data-testid="attach-problem">
          ${t(problem.key, problem.params)}
        </p>
      `}
    </div>
  `;
}
