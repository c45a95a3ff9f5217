import type { InternalUser, WirePostPriority } from '@switchyard/contracts';
import type { SystemConfig } from '@switchyard/system-config';
import type { IncomingHook } from '../entities';
import { Errors } from '../errors';
import type { NewPost } from '../ports';
import { runes } from '../hooks/hook-rules';
import type { WebhookRequest } from './webhook-request';

/** `MaxPostSize` (runes) and `PostPropsMaxUserRunes` (800000 × 0.95). */
export const MAX_POST_RUNES = 16383;
export const MAX_PROPS_RUNES = 760000;
/**
 * The prop that once named the hook (its key) on the posts it made. The key travels in the create
 * command's `hook_id` instead; the prop stays reserved so a request cannot set it.
 */
export const HOOK_ID_PROP = 'incoming_webhook_id';

/** Keys a request's props may not set (the service sets them, or they are internal). */
const RESERVED_PROPS = new Set(['override_icon_url', 'override_username', 'from_webhook', 'attachments', 'webhook_display_name', 'from_bot', 'silent_notification', 'blocks', HOOK_ID_PROP]);

/** The post's props without attachments: client props first, then every service-set key, which wins. */
export function webhookProps(hook: IncomingHook, req: WebhookRequest, owner: InternalUser, config: Readonly<SystemConfig>): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  if (req.props) for (const [key, value] of Object.entries(req.props)) if (!RESERVED_PROPS.has(key)) props[key] = value;
  props.from_webhook = 'true';
  props.webhook_display_name = hook.displayName;
  const settings = config.ServiceSettings;
  if (settings.EnablePostUsernameOverride) props.override_username = req.username || hook.username || 'webhook';
  if (settings.EnablePostIconOverride) {
    const icon = req.icon_url || hook.iconUrl;
    if (icon) props.override_icon_url = icon;
    if (req.icon_emoji) props.override_icon_emoji = req.icon_emoji;
  }
  if (owner.isBot) props.from_bot = 'true';
  if (req.silent) props.silent_notification = 'true';
  if (req.blocks) props.blocks = req.blocks;
  return props;
}

/** Cuts a message every `max` runes (code points), in order. An empty message gives one empty part. */
export function splitMessage(message: string, max = MAX_POST_RUNES): string[] {
  if (message.length <= max) return [message];
  const parts: string[] = [];
  let current = '';
  let count = 0;
  for (const ch of message) {
    if (count === max) {
      parts.push(current);
      current = '';
      count = 0;
    }
    current += ch;
    count += 1;
  }
  parts.push(current);
  return parts;
}

const propsRunes = (props: Record<string, unknown>): number => runes(JSON.stringify(props));

export interface PostPlan {
  readonly message: string;
  readonly props: Record<string, unknown>;
}

/**
 * `SplitWebhookPost`: message parts share the base props; attachments go on the last part, opening a
 * new attachments-only part when the props would pass MAX_PROPS_RUNES; a single oversized attachment
 * has its text cut.
 */
export function planPosts(message: string, baseProps: Record<string, unknown>, attachments: readonly Record<string, unknown>[] | null, maxPropsRunes = MAX_PROPS_RUNES): PostPlan[] {
  if (propsRunes(baseProps) > maxPropsRunes) throw Errors.splitPropsLength();
  const plans: { message: string; props: Record<string, unknown> }[] = splitMessage(message).map((part) => ({ message: part, props: { ...baseProps } }));
  if (attachments === null || attachments.length === 0) return plans;
  for (const attachment of attachments) {
    for (;;) {
      const last = plans[plans.length - 1] as { message: string; props: Record<string, unknown> };
      const existing = (last.props.attachments as Record<string, unknown>[] | undefined) ?? [];
      const candidate = { ...last.props, attachments: [...existing, attachment] };
      const size = propsRunes(candidate);
      if (size <= maxPropsRunes) {
        last.props = candidate;
        break;
      }
      if (existing.length > 0) {
        plans.push({ message: '', props: { ...baseProps } });
        continue;
      }
      const text = typeof attachment.text === 'string' ? attachment.text : '';
      const excess = size - maxPropsRunes;
      const textRunes = runes(text);
      if (textRunes < excess) throw Errors.splitPropsLength();
      const cut = Array.from(text).slice(0, textRunes - excess).join('');
      last.props = { ...last.props, attachments: [{ ...attachment, text: cut }] };
      // JSON escapes may still leave it over: cut further until it fits.
      while (propsRunes(last.props) > maxPropsRunes) {
        const current = (last.props.attachments as Record<string, unknown>[])[0] as Record<string, unknown>;
        const chars = Array.from(String(current.text));
        if (chars.length === 0) throw Errors.splitPropsLength();
        last.props = { ...last.props, attachments: [{ ...current, text: chars.slice(0, Math.floor(chars.length * 0.9)).join('') }] };
      }
      break;
    }
  }
  return plans;
}

export interface PostsInput {
  readonly plans: readonly PostPlan[];
  readonly channelId: string;
  readonly userId: string;
  readonly type: string;
  /** Every part replies to this thread ('' for root posts). */
  readonly rootId: string;
  readonly priority: WirePostPriority | null;
  readonly now: number;
  readonly newId: () => string;
}

/** One create command per part, ids assigned now, create_at strictly increasing so the order survives. */
export function toNewPosts(input: PostsInput): NewPost[] {
  return input.plans.map((plan, index) => ({
    id: input.newId(),
    channel_id: input.channelId,
    user_id: input.userId,
    message: plan.message,
    type: input.type,
    props: plan.props,
    root_id: input.rootId,
    create_at: input.now + index,
    ...(input.priority ? { priority: input.priority } : {}),
  }));
}
