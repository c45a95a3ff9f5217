import type { ConfigUpdatedEvent } from '@switchyard/contracts';
import type { BusMessage, MessageHandler } from '@switchyard/event-bus';
import type { Logger } from '@switchyard/logger';

/** config.events → the live config: each `config.updated` carries the whole document. */
export function configEventsConsumer(apply: (document: Record<string, unknown>) => void, logger: Logger): MessageHandler {
  return async (message: BusMessage): Promise<void> => {
    const event = message.value as Partial<ConfigUpdatedEvent> | undefined;
    const document = event?.payload?.config;
    if (event?.type !== 'config.updated' || typeof document !== 'object' || document === null || Array.isArray(document)) {
      logger.warn('config event ignored', { topic: message.topic, offset: message.offset, type: event?.type });
      return;
    }
    apply(document);
    logger.info('system config updated');
  };
}
