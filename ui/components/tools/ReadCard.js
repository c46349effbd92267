/**
 * read_file and list_dir: a file chip with the line range read ("lines 1–40 of 120"),
 * or a folder chip with the entry count; the body shows what the tool returned (an
 * image file read for the model is shown as the image).
 *
 * @typedef {import("./card_props.js").CardProps} CardProps
 * @typedef {import("../../../protocol/tool_details.ts").DetailsOf<"read_file">} ReadDetails
 */
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import { resultMeta } from "../../state/tool_model.js";
import { CardShell, resultBody } from "./CardShell.js";
import { FileChip } from "./FileChip.js";

/**
 * @param {ReadDetails} meta
 * @param {Record<string, any>} args
 */
function rangeLabel(meta, args) {
  if (meta.image && Number.isFinite(meta.image.width)) {
    const { width: w, height: h, sent } = meta.image;
    // Resized to fit the models' limit: the card says what the model was shown.
    if (sent && Number.isFinite(sent.width)) {
      return t("tool.imageResized", { w, h, sw: sent.width, sh: sent.height });
    }
    return t("tool.imageSize", { w, h });
  }
  const { totalLines, from, to } = meta;
  if (typeof totalLines === "number" && typeof from === "number") {
    if (totalLines === 0) return t("tool.emptyFile");
    if (from === 1 && to !== undefined && to >= totalLines) {
      return tn("tool.linesAll", totalLines);
    }
    return t("tool.lines", { from, to, total: totalLines });
  }
  if (Number.isInteger(args.offset) || Number.isInteger(args.limit)) {
    const from = Number.isInteger(args.offset) ? args.offset : 1;
    return Number.isInteger(args.limit)
      ? t("tool.linesAsked", { from, to: from + args.limit - 1 })
      : t("tool.linesFrom", { from });
  }
  return "";
}

/** @param {CardProps} props */
export function ReadCard({ name, args, result, status, ms, approval, receiving }) {
  const meta = resultMeta(result, ["read_file", "list_dir"]);
  const dir = name === "list_dir";
  const path = String(meta.path ?? args.path ?? (dir ? "." : ""));
  const images = Array.isArray(meta.images) ? meta.images : [];
  const label = dir || status === "failed" || status === "refused" ? "" : rangeLabel(meta, args);
  const resized = !!meta.image?.sent;
  const badges = dir && typeof meta.count === "number" && html`
    <span class="tool-badge" data-testid="tool-count">${tn("tool.entries", meta.count)}</span>
  `;
  return html`
    <${CardShell}
      name=${name}
      kind=${dir ? "list" : "read"}
      status=${status}
      summary=${path &&
        html`<${FileChip} path=${path} dir=${dir} label=${label} longLabel=${resized} />`}
      badges=${badges}
      ms=${ms}
      approval=${approval}
      receiving=${receiving}
      body=${images.length ? () => imageBody(images) : resultBody(result, status)}
    />
  `;
}

/** @param {{mimeType: string, data: string}[]} images */
function imageBody(images) {
  return html`
    <div class="read-card-images">
      ${images.map((im) =>
        html`
          <img class="read-card-image" data-testid="read-card-image" alt=${t("tool.imageAlt")}
            src=${`data:${im.mimeType};base64,${im.data}`} />
        `
      )}
    </div>
  `;
}
