import type { ActionOption } from '../../data-sources/data-sources';

/** A message attachment as stored in `props.attachments` (Slack-compatible; requirements § Attachment). */
export interface AttachmentField {
  readonly title?: string;
  readonly value?: unknown;
  readonly short?: boolean;
}

export interface AttachmentAction {
  readonly id?: string;
  readonly name?: string;
  readonly type?: string;
  readonly style?: string;
  readonly disabled?: boolean;
  readonly options?: readonly ActionOption[] | null;
  readonly data_source?: string;
  readonly default_option?: string;
}

export interface Attachment {
  readonly fallback?: string;
  readonly color?: string;
  readonly pretext?: string;
  readonly text?: string;
  readonly author_name?: string;
  readonly author_link?: string;
  readonly author_icon?: string;
  readonly title?: string;
  readonly title_link?: string;
  readonly fields?: readonly AttachmentField[] | null;
  readonly image_url?: string;
  readonly thumb_url?: string;
  readonly footer?: string;
  readonly footer_icon?: string;
  readonly actions?: readonly AttachmentAction[] | null;
  readonly ts?: unknown;
}

export type OnAction = (actionId: string, selectedOption?: string) => void;

/** The attachments of a post, whatever the JSON holds (non-objects dropped). */
export function attachmentsOf(props: Readonly<Record<string, unknown>>): Attachment[] {
  const raw = props.attachments;
  if (!Array.isArray(raw)) return [];
  return raw.filter((a): a is Attachment => a !== null && typeof a === 'object' && !Array.isArray(a));
}
