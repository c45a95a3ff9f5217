import { CONFIG_EVENT_KEY, envelope, Topics, type ConfigUpdatedEvent, type UsersEvent, type UsersEventPayload, type UsersEventType } from '@switchyard/contracts';
import type { EventPublisher } from '@switchyard/event-bus';
import type { SystemConfig } from '@switchyard/system-config';
import type { DomainEvents } from '../../domain/ports';
import { noteAffectedUser } from './affected-users';

/** Publishes domain events as envelopes: users.events keyed by user id; config.events keyed `config`. */
export class BusDomainEvents implements DomainEvents {
  public constructor(private readonly bus: EventPublisher) {}

  public async users(type: UsersEventType, payload: UsersEventPayload): Promise<void> {
    const event: UsersEvent = envelope(type, payload);
    noteAffectedUser(payload.userId);
    await this.bus.publish(Topics.usersEvents, [{ key: payload.userId, value: event }]);
  }

  public async configUpdated(config: SystemConfig): Promise<void> {
    const event: ConfigUpdatedEvent = envelope('config.updated', { config: config as unknown as Record<string, unknown> });
    await this.bus.publish(Topics.configEvents, [{ key: CONFIG_EVENT_KEY, value: event }]);
  }
}
