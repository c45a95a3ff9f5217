import type { WirePostPriority } from '@switchyard/contracts';

/** `IncomingWebhookRequest` after decoding (mattermost-wire.md §9). Absent attachments are `null`. */
export interface WebhookRequest {
  readonly text: string;
  readonly username: string;
  readonly icon_url: string;
  readonly channel: string;
  readonly props: Readonly<Record<string, unknown>> | null;
  readonly attachments: readonly unknown[] | null;
  readonly type: string;
  readonly icon_emoji: string;
  readonly priority: WirePostPriority | null;
  /** The thread to reply to (newest reference, wire-2 §4.3); '' for a root post. */
  readonly root_id: string;
  /** 11.10: no notification, unread or mention for anyone (stored as `props.silent_notification: "true"`). */
  readonly silent: boolean;
  /** Slack Block Kit blocks, checked (spec "Block Kit"); kept in `props.blocks`. */
  readonly blocks: readonly Record<string, unknown>[] | null;
}

export const emptyRequest: WebhookRequest = {
  text: '',
  username: '',
  icon_url: '',
  channel: '',
  props: null,
  attachments: null,
  type: '',
  icon_emoji: '',
  priority: null,
  root_id: '',
  silent: false,
  blocks: null,
};
