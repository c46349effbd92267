/** Handlers for the ops in `protocol/files.ts`: the task's workspace tree. */
import type { FILES_OP_ARGS } from "../../protocol/index.ts";
import {
  cleanTempDir,
  createEntry,
  deleteEntry,
  ensureTempDir,
  listDir,
  renameEntry,
} from "../files/tree.ts";
import { taskWorkspace } from "./workspace.ts";
import type { OpHandlers } from "./types.ts";

export const FILES_HANDLERS: OpHandlers<keyof typeof FILES_OP_ARGS> = {
  "files.list": (ctx, a) => listDir(taskWorkspace(ctx, a.taskId), a.path),
  "files.create": (ctx, a) => createEntry(taskWorkspace(ctx, a.taskId), a.path, a.kind),
  "files.rename": (ctx, a) => renameEntry(taskWorkspace(ctx, a.taskId), a.from, a.to),
  "files.delete": (ctx, a) => deleteEntry(taskWorkspace(ctx, a.taskId), a.path),
  "files.tempDir": (ctx, a) => ensureTempDir(taskWorkspace(ctx, a.taskId)),
  "files.cleanTemp": (ctx, a) => cleanTempDir(taskWorkspace(ctx, a.taskId)),
};
