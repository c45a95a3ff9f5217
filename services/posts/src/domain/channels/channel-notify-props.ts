import { badRequest, type AppError } from '@switchyard/errors';
import type { ChannelMember } from '../entities';

/** A membership's notification settings (the reference's ChannelMember.NotifyProps): key → value. */
export type ChannelNotifyProps = Readonly<Record<string, string>>;

/** What a membership never set answers (the reference's defaults as this service has always shown them). */
export const DEFAULT_CHANNEL_NOTIFY_PROPS: ChannelNotifyProps = Object.freeze({
  desktop: 'default',
  email: 'default',
  mark_unread: 'all',
  push: 'default',
  ignore_channel_mentions: 'default',
});

/** The keys `PUT .../notify_props` copies (the reference's UpdateChannelMemberNotifyProps); others are ignored. */
export const UPDATABLE_CHANNEL_NOTIFY_KEYS: readonly string[] = ['mark_unread', 'desktop', 'desktop_threads', 'email', 'push', 'push_threads', 'ignore_channel_mentions'];

const NOTIFY_LEVELS = new Set(['default', 'all', 'mention', 'none']);
const MARK_UNREAD_LEVELS = new Set(['all', 'mention']);
const EMAIL_VALUES = new Set(['default', 'true', 'false']);
const IGNORE_CHANNEL_MENTIONS_VALUES = new Set(['default', 'off', 'on']);

/** The stored props over the defaults: a membership never set answers exactly the defaults. */
export function channelNotifyPropsOf(member: Pick<ChannelMember, 'notify_props'>): ChannelNotifyProps {
  return member.notify_props ? { ...DEFAULT_CHANNEL_NOTIFY_PROPS, ...member.notify_props } : DEFAULT_CHANNEL_NOTIFY_PROPS;
}

/**
 * The known keys of a request body whose values are strings (a JSON object of strings, as the reference decodes it
 * into a string map: other values are dropped); undefined when the body is not a JSON object.
 */
export function updatableNotifyProps(body: unknown): Record<string, string> | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const source = body as Record<string, unknown>;
  const props: Record<string, string> = {};
  for (const key of UPDATABLE_CHANNEL_NOTIFY_KEYS) {
    const value = Object.prototype.hasOwnProperty.call(source, key) ? source[key] : undefined;
    if (typeof value === 'string') props[key] = value;
  }
  return props;
}

const invalid = (id: string, message: string, detailed: string): AppError => badRequest(`model.channel_member.is_valid.${id}.app_error`, message, { detailedError: detailed });

/** The reference's IsChannelMemberNotifyPropsValid(props, allowMissingFields=true): only the keys present, in its order. */
export function notifyPropsError(props: ChannelNotifyProps): AppError | undefined {
  const desktop = props.desktop;
  if (desktop !== undefined && (desktop.length > 20 || !NOTIFY_LEVELS.has(desktop))) return invalid('notify_level', 'Invalid notify level.', `notify_level=${desktop}`);
  const markUnread = props.mark_unread;
  if (markUnread !== undefined && (markUnread.length > 20 || !MARK_UNREAD_LEVELS.has(markUnread))) return invalid('unread_level', 'Invalid mark unread level.', `mark_unread_level=${markUnread}`);
  const push = props.push;
  if (push !== undefined && (push.length > 20 || !NOTIFY_LEVELS.has(push))) return invalid('push_level', 'Invalid push notification level.', `push_notification_level=${push}`);
  const email = props.email;
  if (email !== undefined && (email.length > 20 || !EMAIL_VALUES.has(email))) return invalid('email_value', 'Invalid email notification value.', `push_notification_level=${email}`);
  const ignore = props.ignore_channel_mentions;
  if (ignore !== undefined && (ignore.length > 40 || !IGNORE_CHANNEL_MENTIONS_VALUES.has(ignore))) {
    return invalid('ignore_channel_mentions_value', 'Invalid status for ignore channel mentions.', `ignore_channel_mentions=${ignore}`);
  }
  return undefined;
}
