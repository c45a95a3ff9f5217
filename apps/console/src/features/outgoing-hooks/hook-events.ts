import { ADMIN_OUTGOING_EVENT_TYPES, DEFAULT_OUTGOING_EVENT_TYPES, OUTGOING_EVENT_TYPES, type OutgoingEventType } from '@switchyard/contracts/wire';
import type { Bot, OutgoingHook } from '../../api/types';

/** The event types an outgoing hook may hear (`@switchyard/contracts/wire`), in words: every type needs one. */
export const EVENT_TYPE_LABELS: Readonly<Record<OutgoingEventType, string>> = {
  posted: 'A message is posted',
  post_edited: 'A message is edited',
  post_deleted: 'A message is deleted',
  reaction_added: 'A reaction is added',
  reaction_removed: 'A reaction is removed',
  channel_member_added: 'Someone joins a channel',
  channel_member_removed: 'Someone leaves a channel',
  channel_created: 'A channel is created',
  file_uploaded: 'A file is uploaded',
  integration_disabled: 'An integration is disabled (system admins only)',
  delivery_dead: 'A delivery gives up (system admins only)',
};

/** A type's words; a type this console does not know (a newer server's) shows as itself. */
export function eventTypeLabel(type: string): string {
  return (EVENT_TYPE_LABELS as Readonly<Record<string, string>>)[type] ?? type;
}

/** Only hooks created by system admins may hear about other hooks; others are not offered these. */
export const ADMIN_EVENT_TYPES: readonly string[] = ADMIN_OUTGOING_EVENT_TYPES;

export const DEFAULT_EVENT_TYPES: readonly string[] = DEFAULT_OUTGOING_EVENT_TYPES;

/** The types a user may pick: all for system admins; without the admin-only ones for everyone else. */
export function eventTypesFor(isAdmin: boolean): string[] {
  return OUTGOING_EVENT_TYPES.filter((t) => isAdmin || !ADMIN_EVENT_TYPES.includes(t));
}

/** A hook's types as stored, `posted` when the server sent none (a hook made before event types). */
export function eventTypesOf(hook: Pick<OutgoingHook, 'event_types'> | undefined): string[] {
  const types = hook?.event_types;
  return Array.isArray(types) && types.length > 0 ? [...types] : [...DEFAULT_EVENT_TYPES];
}

export const SIGNING_ALGORITHMS: readonly { readonly value: OutgoingHook['signing_algorithm']; readonly label: string }[] = [
  { value: 'hmac-sha256', label: 'v1: HMAC-SHA256 with the signing secret' },
  { value: 'ed25519', label: 'v1a: Ed25519, checked with the public key' },
];

/** The bots a hook may post as: live bots the user owns, or every live bot with manage_others_bots. */
export function botsUserManages(bots: readonly Bot[], userId: string, manageOthers: boolean): Bot[] {
  return bots.filter((b) => b.delete_at === 0 && (manageOthers || b.owner_id === userId));
}
