/**
 * `@switchyard/contracts/wire`: JSON shapes of the public API and the plain lists of values they allow, with no
 * import outside this folder, so that the browser console can use them without pulling node code (joi, node:crypto) into its
 * bundle. eslint.config.mjs keeps it that way.
 */
export type { Dialog, DialogDatetimeConfig, DialogElement, DialogOption } from './dialogs';
export type { WireDelivery, WireIncomingHook, WireOutgoingHook } from './hooks';
export { ADMIN_OUTGOING_EVENT_TYPES, DEFAULT_OUTGOING_EVENT_TYPES, OUTGOING_EVENT_TYPES, type OutgoingEventType } from './hook-event-types';
