/**
 * The event types an outgoing hook may hear (spec README "Extension wire format", Event types): one list
 * for the dispatcher that validates `event_types` and the console that offers them.
 */
export const OUTGOING_EVENT_TYPES = [
  'posted',
  'post_edited',
  'post_deleted',
  'reaction_added',
  'reaction_removed',
  'channel_member_added',
  'channel_member_removed',
  'channel_created',
  'file_uploaded',
  'integration_disabled',
  'delivery_dead',
] as const;
export type OutgoingEventType = (typeof OUTGOING_EVENT_TYPES)[number];

/** Types about other hooks: only hooks created by system admins may hear them. */
export const ADMIN_OUTGOING_EVENT_TYPES: readonly OutgoingEventType[] = ['integration_disabled', 'delivery_dead'];

/** What a hook hears when it names no types (every hook made before event types). */
export const DEFAULT_OUTGOING_EVENT_TYPES: readonly OutgoingEventType[] = ['posted'];
