import { commonErrors } from '@switchyard/errors';
import { Joi, validate } from '@switchyard/validation';
import type { HookInput } from '../../domain/hooks/hook-input';

const text = Joi.string().allow('').max(65536);
const list = Joi.array().items(Joi.string().allow('').max(65536)).max(1000).allow(null);

/** OutgoingWebhook JSON as clients send it (unknown keys ignored, no type coercion). */
export const outgoingHookBody = Joi.object({
  id: text,
  token: text,
  team_id: text,
  channel_id: text,
  creator_id: text,
  trigger_words: list,
  trigger_when: Joi.number().integer().min(-1_000_000).max(1_000_000),
  callback_urls: list,
  display_name: text,
  description: text,
  content_type: text,
  username: text,
  icon_url: text,
  signing_algorithm: Joi.string().allow('').max(64).allow(null),
  event_types: Joi.array().items(Joi.string().allow('').max(64)).max(100).allow(null),
  bot_user_id: Joi.string().allow('').max(64).allow(null),
}).required();

interface OutgoingHookBody {
  id?: string;
  token?: string;
  team_id?: string;
  channel_id?: string;
  creator_id?: string;
  trigger_words?: string[] | null;
  trigger_when?: number;
  callback_urls?: string[] | null;
  display_name?: string;
  description?: string;
  content_type?: string;
  username?: string;
  icon_url?: string;
  signing_algorithm?: string | null;
  event_types?: string[] | null;
  bot_user_id?: string | null;
}

/** A body that does not decode as a hook is 400 `invalid_body_param` naming `outgoing_webhook`, as the reference. */
export function hookInputFrom(body: unknown): HookInput {
  const b = validate<OutgoingHookBody>(outgoingHookBody, body, { onError: (_key, detail) => commonErrors.invalidBodyParam('outgoing_webhook', detail) });
  const input: Record<string, unknown> = {
    id: b.id,
    token: b.token,
    teamId: b.team_id,
    channelId: b.channel_id,
    creatorId: b.creator_id,
    triggerWords: b.trigger_words ?? undefined,
    triggerWhen: b.trigger_when,
    callbackUrls: b.callback_urls ?? undefined,
    displayName: b.display_name,
    description: b.description,
    contentType: b.content_type,
    username: b.username,
    iconUrl: b.icon_url,
    signingAlgorithm: b.signing_algorithm ?? undefined,
    eventTypes: b.event_types ?? undefined,
    botUserId: b.bot_user_id ?? undefined,
  };
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as HookInput;
}

export const actionBody = Joi.object({
  selected_option: Joi.string().allow('').max(65536),
  cookie: Joi.string().allow('').max(1_000_000),
  query: Joi.object().unknown(true),
  integration_format: Joi.string().allow(''),
})
  .allow(null)
  .optional();

