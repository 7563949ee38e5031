/**
 * Disparos (bulk messages): the module's face for its routes, the app and the modules that use it.
 * Its parts: rows.ts (the rows read and checked), queue.ts (rows in, bulk actions), listing.ts
 * (the screen's reads), pace-settings.ts (a connection's pace and pause), send.ts (the send run),
 * outcomes.ts (what became of a message), opt-out.ts (SAIR).
 *
 * Rows are created 'a enviar'; one job per connection
 * (`disparos.send`, singleton `disparos:<whatsappId>`) takes them one at a time, each in ONE
 * transaction: the pace decides (pacing.ts), the oldest due row is taken FOR UPDATE SKIP LOCKED,
 * rendered, stored in the contact's history (a closed ticket: no waiting ticket is opened) and
 * queued in the outbox at the bulk priority ('enviando'), and the next run is queued for when the
 * pace allows. The outbox's `message.sent` / `message.failed` events move the row to 'enviado' /
 * 'com erro'; the messages' sent_at / send_error keep the truth, so 'enviando' rows are also
 * reconciled from them at start and every minute (a crash between the send and the event).
 */

export { type DisparoDeps, SEND_JOB, SWEEP_JOB, wakeJob } from "./deps.js";
export { disparoStats, listDisparos } from "./listing.js";
export { handleOptOut, listOptOuts, clearOptOut, optOutKey } from "./opt-out.js";
export { disparoWork, onMessageFailed, onMessageSent, reconcile } from "./outcomes.js";
export { listConnections, updateConnection } from "./pace-settings.js";
export { cancelPending, createDisparos, deleteAllDisparos, restartErrors } from "./queue.js";
export { type CheckedRow, checkRows, type RowInput, type RowsChecked, rowsFromTags, startOf } from "./rows.js";
export { runSend } from "./send.js";
