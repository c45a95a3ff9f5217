import { newId } from '@switchyard/ids';
import { Permissions } from '@switchyard/permissions';
import type { OutgoingHook } from '../entities';
import type { Deps } from '../ports';
import { newSigningSecret } from '../secrets';
import { checkBotHook } from './bot-hook';
import { checkDestination } from './check-destination';
import { requireOutgoingEnabled, requireTeamPermission, type Actor } from './hook-access';
import type { HookInput } from './hook-input';
import { assertValidHook } from './hook-rules';
import { extensionFields, NEW_HOOK_EXTENSIONS } from './hook-extensions';

/** `POST /hooks/outgoing`: 201 with the hook, its token and signing secret. */
export async function createHook(deps: Deps, actor: Actor, input: HookInput): Promise<OutgoingHook> {
  requireOutgoingEnabled(deps);
  const teamId = input.teamId ?? '';
  const creatorId = input.creatorId !== undefined && input.creatorId !== '' ? input.creatorId : actor.userId;
  if (creatorId !== actor.userId) await requireTeamPermission(deps, actor, teamId, Permissions.manageOthersOutgoingWebhooks);
  await requireTeamPermission(deps, actor, teamId, Permissions.manageOwnOutgoingWebhooks);
  const now = deps.clock.now();
  const hook: OutgoingHook = {
    id: newId(),
    token: newId(),
    createAt: now,
    updateAt: now,
    deleteAt: 0,
    creatorId,
    channelId: input.channelId ?? '',
    teamId,
    triggerWords: [...(input.triggerWords ?? [])],
    triggerWhen: input.triggerWhen ?? 0,
    callbackUrls: [...(input.callbackUrls ?? [])],
    displayName: input.displayName ?? '',
    description: input.description ?? '',
    contentType: input.contentType ?? '',
    username: input.username ?? '',
    iconUrl: input.iconUrl ?? '',
    signingSecret: newSigningSecret(),
    previousSigningSecret: '',
    previousSecretExpiresAt: 0,
    disabledAt: 0,
    previousSigningKey: '',
    ...extensionFields(actor, input, NEW_HOOK_EXTENSIONS),
  };
  await checkBotHook(deps, actor, hook);
  await checkDestination(deps, hook, 'create');
  assertValidHook(hook);
  await deps.hooks.insert(hook);
  return hook;
}
