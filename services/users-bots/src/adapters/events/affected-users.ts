import type { ServerResponse } from 'node:http';
import type { UsersEventPayload, UsersEventType, TeamEventType } from '@switchyard/contracts';
import type { SystemConfig } from '@switchyard/system-config';
import type { DomainEvents } from '../../domain/ports';
import type { Preference } from '../../domain/preferences/preference';

/**
 * Response header naming the users whose sessions a request changed (deactivation, revocation, role
 * change, ...): the gateway drops their cached sessions before it answers, so the client's very next
 * request sees the change even before the users.events message reaches every gateway. Internal: the
 * gateway removes it from the public response.
 */
export const AFFECTED_USERS_HEADER = 'x-switchyard-affected-users';

/**
 * The domain events of one request: each users.events message also names its user in the request's
 * answer (AFFECTED_USERS_HEADER), set before the event is published, so before the use case returns and
 * the route answers. Made per request by the routes (`requestDeps`), explicitly (ADR 0042).
 */
export class AffectedUsersEvents implements DomainEvents {
  private readonly affected = new Set<string>();

  public constructor(private readonly events: DomainEvents, private readonly res: ServerResponse) {}

  public async users(type: UsersEventType, payload: UsersEventPayload): Promise<void> {
    this.affected.add(payload.userId);
    if (!this.res.headersSent) this.res.setHeader(AFFECTED_USERS_HEADER, [...this.affected].join(','));
    await this.events.users(type, payload);
  }

  public teams(type: TeamEventType, payload: { readonly teamId: string; readonly userId: string }): Promise<void> {
    return this.events.teams(type, payload);
  }

  public configUpdated(config: SystemConfig): Promise<void> {
    return this.events.configUpdated(config);
  }

  public async preferences(kind: 'changed' | 'deleted', userId: string, preferences: readonly Preference[]): Promise<void> {
    await this.events.preferences?.(kind, userId, preferences);
  }
}
