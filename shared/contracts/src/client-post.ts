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

/** A stored post as clients receive it: integrations stripped, `has_reactions` only when true (omitempty). */
export function clientPost(post: WirePost): Json {
  const { has_reactions: hasReactions, props, ...rest } = post as WirePost & { pending_events?: unknown };
  delete (rest as { pending_events?: unknown }).pending_events;
  return { ...rest, props: stripIntegrations(props), ...(hasReactions ? { has_reactions: true } : {}) };
}
