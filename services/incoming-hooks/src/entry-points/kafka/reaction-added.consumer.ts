import { reactionEventPayloadSchema, type ReactionEventPayload } from '@switchyard/contracts';
import { eventTypeOf, type BusMessage, type MessageHandler } from '@switchyard/event-bus';
import type { Logger } from '@switchyard/logger';
import { notifyReaction } from '../../domain/reactions/notify-reaction.usecase';
import type { Deps } from '../../domain/ports';

/** posts.events `reaction.added` → reaction notifications; other events are skipped. */
export function reactionAddedConsumer(deps: Deps, logger: Logger): MessageHandler {
  return async (message: BusMessage): Promise<void> => {
    // By the event-type header where the bus wrote one: the other types (nearly all) are never decoded.
    if (eventTypeOf(message) !== 'reaction.added') return;
    const event = message.value as { payload?: unknown } | undefined;
    const { error, value } = reactionEventPayloadSchema.validate(event?.payload);
    if (error) {
      logger.warn('reaction event ignored', { offset: message.offset, reason: error.message });
      return;
    }
    const sent = await notifyReaction(deps, value as ReactionEventPayload);
    if (sent) logger.debug('reaction notification queued', { post_id: value.reaction.post_id });
  };
}
