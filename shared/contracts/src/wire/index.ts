/**
 * `@switchyard/contracts/wire`: JSON shapes of the public API, types only, with no import outside this
 * folder, so that the browser console can use them without pulling node code (joi, node:crypto) into its
 * bundle. eslint.config.mjs keeps it that way.
 */
export type { Dialog, DialogDatetimeConfig, DialogElement, DialogOption } from './dialogs';
export type { WireDelivery, WireIncomingHook, WireOutgoingHook } from './hooks';
