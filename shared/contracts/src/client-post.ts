import type { WirePost } from './posts-model';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The props a client may see: every action's `integration` (url and secret context) removed. */
export function stripIntegrations(props: Readonly<Json>): Json {
  const attachments = props.attachments;
  if (!Array.isArray(attachments)) return props as Json;
  let changed = false;
  const stripped = attachments.map((attachment: unknown) => {
    if (!isObject(attachment) || !Array.isArray(attachment.actions)) return attachment;
    const actions = attachment.actions.map((action: unknown) => {
      if (!isObject(action) || !('integration' in action)) return action;
      changed = true;
      const { integration: _integration, ...rest } = action;
      return rest;
    });
    return { ...attachment, actions };
  });
  return changed ? { ...props, attachments: stripped } : (props as Json);
}

/** The prop that carried an incoming hook's key (its only secret) on posts stored before it moved out of props. */
const HOOK_KEY_PROP = 'incoming_webhook_id';

/**
 * A stored post as clients receive it: integrations and any incoming hook key stripped, internal fields
 * dropped, `has_reactions` only when true (omitempty).
 */
export function clientPost(post: WirePost): Json {
  const { has_reactions: hasReactions, props, ...rest } = post as WirePost & { pending_events?: unknown; incoming_hook_id?: unknown };
  delete (rest as { pending_events?: unknown }).pending_events;
  delete (rest as { incoming_hook_id?: unknown }).incoming_hook_id;
  const { [HOOK_KEY_PROP]: _key, ...visible } = props;
  return { ...rest, props: stripIntegrations(visible), ...(hasReactions ? { has_reactions: true } : {}) };
}
