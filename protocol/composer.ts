/**
 * Protocol ops for the composer: attachments (uploaded over HTTP,
 * referenced here by id), prompt history per workspace, per-task drafts and the
 * steering queue. Merged into `OP_ARGS` by `protocol.ts`; the UI imports it through
 * `protocol.ts`.
 *
 * Uploads: `POST /api/uploads?name=<file name>&mime=<type>` with the raw bytes as the
 * body answers `{attachment: Attachment}` (201) or `{error: {code, message}}`
 * (400 bad name/type, 411 no length, 413 too large). `GET /api/uploads/<id>` serves
 * the bytes back (images with their type, other files as a download).
 */
import { arr, nullable, obj, type Schema, str } from "./schema.ts";

/** Limits shared by the upload endpoint, the ops and the UI. */
/** Where attachments are copied in the workspace, so the agent's tools can read them. */
export const WORKSPACE_ATTACHMENTS = ".reinagent/attachments";

export const COMPOSER_LIMITS = {
  /** Attachments per message (and per queued message / draft). */
  attachments: 9,
  /** Largest image upload, in bytes. */
  imageBytes: 10 * 1024 * 1024,
  /** Largest other upload, in bytes. */
  fileBytes: 20 * 1024 * 1024,
  /** Longest file name, in characters. */
  nameChars: 200,
  /** Pasted text this long (characters) or longer becomes a `.txt` attachment. */
  pasteTextChars: 15_000,
  /** Text files up to this size are inlined into the model request as a `<file>` block. */
  inlineTextBytes: 100_000,
  /** Prompts remembered per workspace for ↑/↓. */
  promptHistory: 30,
  /** Messages waiting in one task's steering queue. */
  queue: 20,
  /** Longest draft text (same as a message). */
  draftChars: 200_000,
} as const;

/** Image types sent inline to vision models (and shown as thumbnails). SVG is a file. */
export const IMAGE_MIMES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

/** `u` + 32 hex digits. */
export const ATTACHMENT_ID_RE = /^u[0-9a-f]{32}$/;
/** A MIME type such as `text/plain` (parameters are not accepted). */
export const MIME_RE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,127}$/;

/** An uploaded file, as stored next to its bytes and as referenced by messages. */
export interface Attachment {
  id: string;
  name: string;
  mime: string;
  size: number;
  kind: "image" | "file";
  createdAt: number;
}

/** A message sent while the task was running: sent after the run completes naturally. */
export interface QueuedMessage {
  id: string;
  text: string;
  attachments: Attachment[];
  createdAt: number;
}

/** A composer draft: text and attachments not sent yet. */
export interface Draft {
  text: string;
  attachments: Attachment[];
  updatedAt: number;
}

/** Topic `task:<id>` also carries `{kind: "queue", queue}` (see `TaskEvent`). */
export const attachmentIds: Schema<string[]> = arr(
  str({ min: 33, max: 33, pattern: ATTACHMENT_ID_RE }),
  COMPOSER_LIMITS.attachments,
);

const taskId = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
/** A draft belongs to a task, or is the new-task draft (`null`). */
const draftOf = nullable(taskId);
const itemId = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
/** A project folder, or null for the default workspace. */
const workspace = nullable(str({ min: 1, max: 4096 }));

export const COMPOSER_OP_ARGS = {
  /** The task's steering queue (also in `task.subscribe`'s answer and `queue` events). */
  "queue.list": obj({ id: taskId }),
  /** Removes a queued message (not sent). */
  "queue.remove": obj({ id: taskId, itemId }),
  /** Sends a queued message now (the task must be idle: after a stop or an error). */
  "queue.send": obj({ id: taskId, itemId }),
  /** Prompts sent in a workspace, oldest first (at most 30). */
  "prompts.list": obj({ workspace }),
  "draft.get": obj({ task: draftOf }),
  /** Saves the draft; empty text and no attachments deletes it. */
  "draft.set": obj({
    task: draftOf,
    text: str({ max: COMPOSER_LIMITS.draftChars }),
    attachments: attachmentIds,
  }),
  /** Metadata of uploaded attachments (unknown ids are left out). */
  "uploads.info": obj({ ids: attachmentIds }),
} satisfies Record<string, Schema>;

export interface ComposerOpResults {
  "queue.list": { queue: QueuedMessage[] };
  "queue.remove": { queue: QueuedMessage[] };
  "queue.send": { queue: QueuedMessage[] };
  "prompts.list": { prompts: string[] };
  "draft.get": { draft: Draft | null };
  "draft.set": { draft: Draft | null };
  "uploads.info": { attachments: Attachment[] };
}
