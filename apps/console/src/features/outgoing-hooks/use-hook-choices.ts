import { Permissions } from '@switchyard/permissions';
import { useBots } from '../bots/use-bots';
import { usePermissions } from '../session/use-permissions';
import { useMe } from '../session/use-session';
import { botsUserManages, eventTypesFor } from './hook-events';

/** What the hook form offers this user: the bots they manage, and the event types they may pick. */
export function useHookChoices() {
  const me = useMe().data;
  const { isAdmin, can } = usePermissions();
  const manageOthers = can(Permissions.manageOthersBots);
  const bots = useBots(!!me && (can(Permissions.manageBots) || manageOthers));
  return { bots: botsUserManages(bots.data ?? [], me?.id ?? '', manageOthers), eventTypes: eventTypesFor(isAdmin) };
}
