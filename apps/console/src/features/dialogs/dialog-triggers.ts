import type { OpenDialog } from './dialog-types';

/**
 * Which dialogs this page shows. `open_dialog` reaches every connection of the user; like the reference's
 * web app, a page shows only the dialog whose trigger id it got back from its own button press or slash
 * command. The event may come before that answer, so unmatched dialogs wait (a few, briefly) for it.
 */
export interface TriggerState {
  readonly mine: readonly string[];
  readonly waiting: readonly OpenDialog[];
}

export const noTriggers: TriggerState = { mine: [], waiting: [] };

const KEEP = 10;

/** A dialog event arrived: shown when its trigger id is this page's, else kept waiting. */
export function dialogArrived(state: TriggerState, dialog: OpenDialog): { state: TriggerState; show?: OpenDialog } {
  if (state.mine.includes(dialog.trigger_id)) return { state: { ...state, mine: state.mine.filter((t) => t !== dialog.trigger_id) }, show: dialog };
  return { state: { ...state, waiting: [...state.waiting, dialog].slice(-KEEP) } };
}

/** This page got a trigger id back (action or command answer): a dialog already waiting for it is shown. */
export function triggerReceived(state: TriggerState, triggerId: string): { state: TriggerState; show?: OpenDialog } {
  const waiting = state.waiting.find((d) => d.trigger_id === triggerId);
  if (waiting) return { state: { ...state, waiting: state.waiting.filter((d) => d !== waiting) }, show: waiting };
  return { state: { ...state, mine: [...state.mine, triggerId].slice(-KEEP) } };
}
