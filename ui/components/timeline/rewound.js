/**
 * Whether the turn being rendered had its file changes put back by a rewind (the
 * server's `changes.rewound` on the turn's user entry): tool change cards inside the
 * turn read it to mark themselves.
 */
import { createContext } from "preact";

/** `{entryId, at}` of the rewind, or null. */
export const RewoundContext = createContext(
  /** @type {{entryId: string, at: number}|null} */ (null),
);
