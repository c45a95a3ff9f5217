import { commonErrors } from '@switchyard/errors';
import type { OutgoingHook } from '../entities';
import { hookErrors } from '../errors';
import type { Deps } from '../ports';
import { checkBotHook } from './bot-hook';
import { checkDestination } from './check-destination';
import { loadHook, requireHookAccess, requireOutgoingEnabled, type Actor } from './hook-access';
import type { HookInput } from './hook-input';
import { assertValidHook } from './hook-rules';
import { extensionFields } from './hook-extensions';

/**
 * `PUT /hooks/outgoing/{id}`: the body is the whole hook. As the reference: the caller becomes
 * `creator_id`; id, create_at, delete_at and team_id stay; the token is taken from the body (a PUT
 * without the current token fails validation). The signing secrets and `disabled_at` stay.
 */
export async function updateHook(deps: Deps, actor: Actor, hookId: string, input: HookInput): Promise<OutgoingHook> {
  requireOutgoingEnabled(deps);
  if (input.id !== hookId) throw commonErrors.invalidBodyParam('hook_id');
  const old = await loadHook(deps, hookId);
  const teamId = input.teamId === undefined || input.teamId === '' ? old.teamId : input.teamId;
  if (teamId !== old.teamId) throw hookErrors.teamMismatch();
  await requireHookAccess(deps, actor, old);
  const hook: OutgoingHook = {
    ...old,
    token: input.token ?? '',
    creatorId: actor.userId,
    channelId: input.channelId ?? '',
    triggerWords: [...(input.triggerWords ?? [])],
    triggerWhen: input.triggerWhen ?? 0,
    callbackUrls: [...(input.callbackUrls ?? [])],
    displayName: input.displayName ?? '',
    description: input.description ?? '',
    contentType: input.contentType ?? '',
    username: input.username ?? '',
    iconUrl: input.iconUrl ?? '',
    ...extensionFields(actor, input, old),
    updateAt: Math.max(deps.clock.now(), old.updateAt + 1),
  };
  await checkBotHook(deps, actor, hook);
  await checkDestination(deps, hook, 'update');
  assertValidHook(hook);
  if (!(await deps.hooks.replace(hook))) throw hookErrors.notFound();
  return hook;
}
