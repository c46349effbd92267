/**
 * The composer's attachments: files picked, dropped or pasted are uploaded at once
 * (`POST /api/uploads`, with progress) and shown as chips; only uploaded ones are
 * sent. At most 9; images ≤ 10 MB, other files ≤ 20 MB (checked here first, and
 * again by the server). Long pasted text becomes a `.txt` attachment.
 *
 * @typedef {import("../../protocol/index.ts").Attachment} Attachment
 * @typedef {import("../i18n/index.js").MsgKey} MsgKey
 * @typedef {{
 *   key: number,
 *   name: string,
 *   mime: string,
 *   size: number,
 *   kind: "image" | "file",
 *   status: "uploading" | "done" | "error",
 *   progress: number,
 *   error: string,
 *   id: string | null,
 *   abort?: () => void,
 * }} Chip
 */
import { computed, signal } from "@preact/signals";
import { COMPOSER_LIMITS, IMAGE_MIMES } from "../../protocol/index.ts";

/** The chips shown in the composer now, in order. */
export const attachments = signal(/** @type {Chip[]} */ ([]));
/** A problem with the last add (too many, too large), as an i18n key + params; null = none. */
export const attachProblem = signal(
  /** @type {{key: MsgKey, params?: Record<string, unknown>} | null} */ (null),
);
/** True while any chip is still uploading. */
export const uploading = computed(() => attachments.value.some((c) => c.status === "uploading"));
/** Ids of the uploaded chips (what a message sends). */
export const readyIds = computed(() =>
  attachments.value.filter((c) => c.status === "done" && c.id).map((
    c,
  ) => /** @type {string} */ (c.id))
);

let nextKey = 1;

/** @param {string} mime */
export const isImage = (mime) => /** @type {readonly string[]} */ (IMAGE_MIMES).includes(mime);

/** URL of an uploaded attachment (thumbnails, downloads). @param {string} id */
export const uploadUrl = (id) => `/api/uploads/${encodeURIComponent(id)}`;

/**
 * @param {number} key
 * @param {Partial<Chip>} patch
 */
function patch(key, patch) {
  attachments.value = attachments.value.map((c) => c.key === key ? { ...c, ...patch } : c);
}

/** @param {number} n */
export function formatSize(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Adds files (picker, drop, paste): each is checked and uploaded. Files past the
 * ninth are refused with a notice.
 * @param {File[]} files
 */
export function addFiles(files) {
  attachProblem.value = null;
  for (const file of files) {
    if (attachments.value.length >= COMPOSER_LIMITS.attachments) {
      attachProblem.value = {
        key: "attach.tooMany",
        params: { max: COMPOSER_LIMITS.attachments },
      };
      return;
    }
    const mime = (file.type || "application/octet-stream").toLowerCase();
    const image = isImage(mime);
    const max = image ? COMPOSER_LIMITS.imageBytes : COMPOSER_LIMITS.fileBytes;
    if (file.size > max) {
      attachProblem.value = {
        key: image ? "attach.imageTooLarge" : "attach.fileTooLarge",
        params: { name: file.name, max: formatSize(max) },
      };
      continue;
    }
    if (file.size === 0) {
      attachProblem.value = { key: "attach.empty", params: { name: file.name } };
      continue;
    }
    /** @type {Chip} */
    const chip = {
      key: nextKey++,
      name: file.name || (image ? "image.png" : "file"),
      mime,
      size: file.size,
      kind: image ? "image" : "file",
      status: "uploading",
      progress: 0,
      error: "",
      id: null,
    };
    attachments.value = [...attachments.value, chip];
    upload(chip, file);
  }
}

/**
 * @param {Chip} chip
 * @param {File} file
 */
function upload(chip, file) {
  const xhr = new XMLHttpRequest();
  const q = new URLSearchParams({ name: chip.name, mime: chip.mime });
  xhr.open("POST", `/api/uploads?${q}`);
  xhr.setRequestHeader("content-type", chip.mime);
  xhr.upload.onprogress = (e) => {
    if (e.lengthComputable) patch(chip.key, { progress: e.loaded / e.total });
  };
  xhr.onload = () => {
    let body = null;
    try {
      body = JSON.parse(xhr.responseText);
    } catch {
      body = null;
    }
    if (xhr.status === 201 && body?.attachment?.id) {
      patch(chip.key, { status: "done", progress: 1, id: body.attachment.id, abort: undefined });
    } else {
      const message = body?.error?.message ?? `HTTP ${xhr.status}`;
      console.error("reinagent: upload failed:", message);
      patch(chip.key, { status: "error", error: message, abort: undefined });
    }
  };
  xhr.onerror = () => {
    console.error("reinagent: upload failed: network error");
    patch(chip.key, { status: "error", error: "network error", abort: undefined });
  };
  patch(chip.key, { abort: () => xhr.abort() });
  xhr.send(file);
}

/** @param {number} key */
export function removeAttachment(key) {
  const chip = attachments.value.find((c) => c.key === key);
  chip?.abort?.();
  attachments.value = attachments.value.filter((c) => c.key !== key);
  attachProblem.value = null;
}

/** Empties the composer's attachments (after sending, when switching views). */
export function clearAttachments() {
  for (const c of attachments.value) c.abort?.();
  attachments.value = [];
  attachProblem.value = null;
}

/**
 * Shows already uploaded attachments (a restored draft).
 * @param {Attachment[]} list
 */
export function setAttachments(list) {
  clearAttachments();
  attachments.value = list.map((a) => ({
    key: nextKey++,
    name: a.name,
    mime: a.mime,
    size: a.size,
    kind: a.kind,
    status: /** @type {const} */ ("done"),
    progress: 1,
    error: "",
    id: a.id,
  }));
}

/** The file name for pasted text: `pasted-text-YYYYMMDD-HHmmss.txt`. @param {Date} d */
export function pastedTextName(d) {
  const p = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return `pasted-text-${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${
    p(d.getMinutes())
  }${p(d.getSeconds())}.txt`;
}

/**
 * What a paste should do: attach its files (images), turn long text into a `.txt`
 * attachment, or leave it to the text box.
 * @param {DataTransfer | null} data
 * @returns {{files: File[]} | null} the files to attach (the paste is then handled)
 */
export function classifyPaste(data) {
  if (!data) return null;
  const files = [...(data.files ?? [])];
  if (!files.length) {
    for (const item of data.items ?? []) {
      if (item.kind === "file") {
        const f = item.getAsFile();
        if (f) files.push(f);
      }
    }
  }
  if (files.length) {
    // Clipboard images are all called image.png: give each a name of its own.
    const stamp = pastedTextName(new Date()).replace(/^pasted-text-|\.txt$/g, "");
    return {
      files: files.map((f, i) => {
        if (f.name && f.name !== "image.png") return f;
        const ext = (f.type.split("/")[1] ?? "png").replace("jpeg", "jpg");
        const n = files.length > 1 ? `-${i + 1}` : "";
        return new File([f], `pasted-image-${stamp}${n}.${ext}`, { type: f.type });
      }),
    };
  }
  const text = data.getData("text/plain");
  if (text.length >= COMPOSER_LIMITS.pasteTextChars) {
    const name = pastedTextName(new Date());
    return { files: [new File([text], name, { type: "text/plain" })] };
  }
  return null;
}
