/**
 * What every tool card is given: ToolCard picks the card for a call and passes these
 * props; the cards and their shared frame (CardShell) take the types from here, so no
 * card imports the module that imports it.
 *
 * @typedef {import("../../../protocol/index.ts").Entry} Entry
 * @typedef {import("../../../protocol/index.ts").PendingApproval} PendingApproval
 * @typedef {"running"|"waiting"|"done"|"failed"|"refused"|"none"} CallStatus
 * @typedef {{name: string, args: Record<string, any>, result: Entry|undefined,
 *   status: CallStatus, ms: number|undefined, approval: PendingApproval|undefined,
 *   receiving: number|undefined, callId?: string}} CardProps
 */
export {};
