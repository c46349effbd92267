/**
 * Whether the turns rendered below are a read-only replay (a sub-agent's transcript):
 * then messages and answers show no actions (edit, rewind, retry, branch).
 */
import { createContext } from "preact";

export const ReadOnlyContext = createContext(false);
