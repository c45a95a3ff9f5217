import type { CreatePostCommandPayload } from '@switchyard/contracts';
import { jsonNestsDeeperThan } from '@switchyard/validation';
import type { SystemConfig } from '@switchyard/system-config';
import type { Delivery, OutgoingHook } from '../entities';
import { derivedId } from '../secrets';
import { slackAttachments, slackText } from './slack-markup';

export const MAX_POST_RUNES = 16383;
const RESERVED_PROPS = new Set(['from_webhook', 'override_username', 'override_icon_url', 'attachments']);

/** The parsed answer of a callback, or undefined when it is empty or not a JSON object. */
export function parseHookResponse(body: string): Record<string, unknown> | undefined {
  if (body.trim() === '' || jsonNestsDeeperThan(body)) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function splitRunes(text: string): string[] {
  const runes = [...text];
  if (runes.length <= MAX_POST_RUNES) return [text];
  const parts: string[] = [];
  for (let i = 0; i < runes.length; i += MAX_POST_RUNES) parts.push(runes.slice(i, i + MAX_POST_RUNES).join(''));
  return parts;
}

/**
 * The posts an outgoing hook's answer creates (mattermost-wire.md §10 Response): none unless `text` is
 * present (even `""`) or `attachments` is non-empty; `response_type: comment` replies in the thread;
 * username and icon overrides only when the settings allow; reserved props are set by the service.
 * Post ids are derived from the delivery, so a redelivered callback never posts twice.
 */
export function buildReply(hook: OutgoingHook, delivery: Delivery, response: Record<string, unknown>, config: Readonly<SystemConfig>, now: number): CreatePostCommandPayload[] {
  const rawAttachments = Array.isArray(response.attachments) ? slackAttachments(response.attachments as unknown[]) : [];
  const hasText = typeof response.text === 'string';
  if (!hasText && rawAttachments.length === 0) return [];
  const text = hasText ? slackText(response.text as string) : '';
  const str = (value: unknown): string => (typeof value === 'string' ? value : '');
  const props: Record<string, unknown> = {};
  const clientProps = response.props;
  if (clientProps !== null && typeof clientProps === 'object' && !Array.isArray(clientProps)) {
    for (const [key, value] of Object.entries(clientProps as Record<string, unknown>)) if (!RESERVED_PROPS.has(key)) props[key] = value;
  }
  props.from_webhook = 'true';
  props.webhook_display_name = hook.displayName;
  const s = config.ServiceSettings;
  if (s.EnablePostUsernameOverride) props.override_username = str(response.username) || hook.username || 'webhook';
  if (s.EnablePostIconOverride) {
    const icon = str(response.icon_url) || hook.iconUrl;
    if (icon !== '') props.override_icon_url = icon;
  }
  const requestedType = str(response.type);
  const type = rawAttachments.length > 0 ? 'slack_attachment' : requestedType.startsWith('custom_') ? requestedType : '';
  const rootId = response.response_type === 'comment' ? delivery.threadRootId : '';
  const priority = response.priority !== null && typeof response.priority === 'object' ? (response.priority as Record<string, unknown>) : undefined;
  const parts = splitRunes(text);
  return parts.map((message, index) => {
    const last = index === parts.length - 1;
    return {
      post: {
        id: derivedId('reply', delivery.id, String(index)),
        channel_id: delivery.channelId,
        // A bot hook's replies post as its bot.
        user_id: hook.botUserId !== '' ? hook.botUserId : hook.creatorId,
        message,
        type: last ? type : type === 'slack_attachment' ? '' : type,
        props: last && rawAttachments.length > 0 ? { ...props, attachments: rawAttachments } : props,
        root_id: rootId,
        create_at: now + index,
        ...(priority && rootId === '' ? { priority } : {}),
      },
      source: 'outgoing_webhook' as const,
      hook_id: hook.id,
    };
  });
}
