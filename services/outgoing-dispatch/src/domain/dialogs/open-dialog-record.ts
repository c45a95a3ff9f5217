/**
 * A dialog the server opened for a user. A submit is only forwarded when it names a dialog that is still
 * open for that user (same url, callback id and state), so a client cannot make the server POST anywhere
 * else, nor change the state the integration gave it.
 */
export interface OpenDialogRecord {
  /** The client trigger id the dialog was opened with. */
  readonly id: string;
  readonly userId: string;
  readonly url: string;
  readonly callbackId: string;
  readonly state: string;
  readonly notifyOnCancel: boolean;
  /** `dialog.source_url` (11.1): where a field refresh (`type: "refresh"` submit) may go; `""` when none. */
  readonly sourceUrl: string;
  /** The `data_source_url`s of the dialog's dynamic selects (11.0): the only URLs `dialogs/lookup` may call. */
  readonly lookupUrls: readonly string[];
  readonly createAt: number;
  readonly expiresAt: number;
}

/** What a submit must match (exactly) to reach the integration. */
export interface OpenDialogMatch {
  readonly userId: string;
  /** The submit URL it was opened with; undefined: any (refresh and lookup check `sourceUrl`/`lookupUrls` themselves). */
  readonly url: string | undefined;
  readonly callbackId: string;
  readonly state: string;
}

/** How long an opened dialog can be submitted (a person may leave it open for a while). */
export const OPEN_DIALOG_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Open dialogs kept per user; opening more forgets the oldest (bounded storage whatever integrations do). */
export const OPEN_DIALOGS_PER_USER = 20;
