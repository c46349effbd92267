/**
 * How an assistant is named on screen: built-ins in the UI's language, custom ones as
 * their file says.
 *
 * @typedef {import("../../../protocol/index.ts").Assistant} Assistant
 */
import { t } from "../../i18n/index.js";

const BUILTIN_IDS = ["general", "coder", "writer", "translator"];

/** @param {Assistant} a */
export function assistantName(a) {
  return a.builtin && BUILTIN_IDS.includes(a.id)
    ? t(/** @type {any} */ (`assistants.builtin.${a.id}`))
    : a.name;
}

/** @param {Assistant} a */
export function assistantDesc(a) {
  return a.builtin && BUILTIN_IDS.includes(a.id)
    ? t(/** @type {any} */ (`assistants.builtin.${a.id}.desc`))
    : a.description;
}
