import { envelope, Topics, type TypingEvent } from '@switchyard/contracts';
import type { EventPublisher } from '@switchyard/event-bus';
import type { TypingPublisher } from '../../domain/ports';

/** `typing` on realtime.events (keyed by channel), so every replica's connections get it. */
export class BusTypingPublisher implements TypingPublisher {
  public constructor(private readonly bus: EventPublisher) {}

  public async typing(channelId: string, userId: string, parentId: string): Promise<void> {
    const event: TypingEvent = envelope('typing', { channel_id: channelId, user_id: userId, parent_id: parentId });
    await this.bus.publish(Topics.realtimeEvents, [{ key: channelId, value: event }]);
  }
}
