import { hasPermission, Permissions } from '@switchyard/permissions';
import { commonErrors } from '@switchyard/errors';
import { ADMIN_OUTGOING_EVENT_TYPES, OUTGOING_EVENT_TYPES, type OutgoingEventType } from '@switchyard/contracts/wire';
import { DEFAULT_EVENT_TYPES, type HookSigningAlgorithm, type OutgoingHook } from '../entities';
import { hookErrors } from '../errors';
import { newEd25519Key } from '../signing/ed25519';
import type { Actor } from './hook-access';
import type { HookInput } from './hook-input';

/** Every event type a hook may name (README "Event types"). */
export const EVENT_TYPES = OUTGOING_EVENT_TYPES;
export type EventType = OutgoingEventType;

/** Only hooks created by system admins may hear about other hooks. */
export const ADMIN_EVENT_TYPES: readonly string[] = ADMIN_OUTGOING_EVENT_TYPES;

const ALGORITHMS: readonly string[] = ['hmac-sha256', 'ed25519'];

type Extensions = Pick<OutgoingHook, 'signingAlgorithm' | 'signingKey' | 'eventTypes' | 'botUserId'>;

/**
 * The extension fields of a created or updated hook: a field the body leaves out keeps `base`'s value
 * (a reference client's PUT never resets them). Switching to ed25519 makes a key pair when the hook has none.
 */
export function extensionFields(actor: Actor, input: HookInput, base: Extensions): Extensions {
  const algorithm = input.signingAlgorithm === undefined || input.signingAlgorithm === '' ? base.signingAlgorithm : input.signingAlgorithm;
  if (!ALGORITHMS.includes(algorithm)) throw hookErrors.invalid('signing_algorithm');
  const eventTypes = input.eventTypes === undefined ? base.eventTypes : [...new Set(input.eventTypes)];
  if (eventTypes.length === 0 || eventTypes.some((t) => !(EVENT_TYPES as readonly string[]).includes(t))) throw hookErrors.invalid('event_types');
  // The caller becomes the hook's creator (create, and update as the reference): they must be a system admin.
  if (eventTypes.some((t) => ADMIN_EVENT_TYPES.includes(t)) && !hasPermission(actor.roles, Permissions.manageSystem)) throw commonErrors.permissions(actor.userId, Permissions.manageSystem);
  const signingKey = algorithm === 'ed25519' && base.signingKey === '' ? newEd25519Key() : base.signingKey;
  const botUserId = input.botUserId === undefined ? base.botUserId : input.botUserId;
  return { signingAlgorithm: algorithm as HookSigningAlgorithm, signingKey, eventTypes, botUserId };
}

export const NEW_HOOK_EXTENSIONS: Extensions = { signingAlgorithm: 'hmac-sha256', signingKey: '', eventTypes: DEFAULT_EVENT_TYPES, botUserId: '' };
