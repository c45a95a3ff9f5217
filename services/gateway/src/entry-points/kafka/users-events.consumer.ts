import type { UsersEvent } from '@switchyard/contracts';
import type { BusMessage, MessageHandler } from '@switchyard/event-bus';
import type { Logger } from '@switchyard/logger';

/**
 * users.events → the token cache: any event about a user (revocation, deactivation, role change, ...)
 * drops every cached session of that user at once.
 */
export function usersEventsConsumer(evictUser: (userId: string) => Promise<void>, logger: Logger): MessageHandler {
  return async (message: BusMessage): Promise<void> => {
    const event = message.value as Partial<UsersEvent> | undefined;
    // Team events (team.created, team.member_added) change no session or role: nothing to drop.
    if (typeof event?.type === 'string' && event.type.startsWith('team.')) return;
    const userId = event?.payload?.userId;
    if (typeof userId !== 'string' || userId === '') {
      logger.warn('users event without userId ignored', { topic: message.topic, offset: message.offset, type: event?.type });
      return;
    }
    await evictUser(userId);
    logger.debug('cached sessions dropped', { user_id: userId, type: event?.type });
  };
}
