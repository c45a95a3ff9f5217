import { CONFIG_EVENT_KEY, envelope, Topics, type ConfigUpdatedEvent, type TeamEventType, type UsersEvent, type UsersEventPayload, type UsersEventType } from '@switchyard/contracts';
import type { EventPublisher } from '@switchyard/event-bus';
import type { SystemConfig } from '@switchyard/system-config';
import type { DomainEvents } from '../../domain/ports';
import type { Preference } from '../../domain/preferences/preference';

/** Publishes domain events as envelopes: users.events keyed by user id (team events by team id); config.events keyed `config`. */
export class BusDomainEvents implements DomainEvents {
  public constructor(private readonly bus: EventPublisher) {}

  public async users(type: UsersEventType, payload: UsersEventPayload): Promise<void> {
    const event: UsersEvent = envelope(type, payload);
    await this.bus.publish(Topics.usersEvents, [{ key: payload.userId, value: event }]);
  }

  /** Not an affected user: joining a team changes no session, so the gateway keeps its cached ones. */
  public async teams(type: TeamEventType, payload: { readonly teamId: string; readonly userId: string }): Promise<void> {
    const event: UsersEvent = envelope(type, { userId: payload.userId, teamId: payload.teamId });
    await this.bus.publish(Topics.usersEvents, [{ key: payload.teamId, value: event }]);
  }

  public async preferences(kind: 'changed' | 'deleted', userId: string, preferences: readonly Preference[]): Promise<void> {
    await this.bus.publish(Topics.realtimeEvents, [{ key: userId, value: envelope(`preferences.${kind}`, { user_id: userId, preferences }) }]);
  }

  public async configUpdated(config: SystemConfig): Promise<void> {
    const event: ConfigUpdatedEvent = envelope('config.updated', { config: config as unknown as Record<string, unknown> });
    await this.bus.publish(Topics.configEvents, [{ key: CONFIG_EVENT_KEY, value: event }]);
  }
}
