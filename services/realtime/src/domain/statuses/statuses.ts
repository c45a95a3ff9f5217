import type { Clock, PresenceStore } from '../ports';
import { effectiveStatus, putStatus, touched, type StatusValue, type WireStatus } from './status';
import type { StatusStore } from './status-store';

export interface StatusSettings {
  /** ServiceSettings.EnableUserStatuses. */
  readonly enabled: boolean;
  /** TeamSettings.UserStatusAwayTimeout, in ms. */
  readonly awayAfterMs: number;
}

export interface StatusesDeps {
  readonly store: StatusStore;
  readonly presence: Pick<PresenceStore, 'onlineAmong'>;
  readonly clock: Clock;
  readonly settings: () => StatusSettings;
  /** Sends `status_change` to the user's own connections on every replica. */
  readonly announce: (userId: string, status: string) => Promise<void>;
  readonly onError: (error: unknown) => void;
}

/**
 * Statuses as the reference answers them (mattermost-wire-3.md §3.1): stored choices (manual away, dnd,
 * offline) over the live sockets of every replica.
 */
export class Statuses {
  public constructor(private readonly deps: StatusesDeps) {}

  public settings(): StatusSettings {
    return this.deps.settings();
  }

  /** One status per id (unknown ids read as offline), in request order. */
  public async read(userIds: readonly string[]): Promise<WireStatus[]> {
    const unique = [...new Set(userIds)];
    const [stored, online] = await Promise.all([this.deps.store.get(unique), this.deps.presence.onlineAmong(unique)]);
    const facts = { now: this.deps.clock.now(), awayAfterMs: this.deps.settings().awayAfterMs };
    return unique.map((id) => effectiveStatus(id, stored.get(id), { ...facts, connected: online.has(id) }));
  }

  /** `PUT /users/{id}/status`: stores the choice and announces it when the visible value changed. */
  public async set(userId: string, status: StatusValue, dndEndTime: number): Promise<WireStatus> {
    const [before] = await this.read([userId]);
    const previous = (await this.deps.store.get([userId])).get(userId);
    await this.deps.store.put(putStatus(previous, userId, status, dndEndTime, this.deps.clock.now()));
    const [after] = await this.read([userId]);
    if (after && before?.status !== after.status) await this.deps.announce(userId, after.status);
    return after ?? putStatusWire(userId, status);
  }

  /** Socket activity (a connect, `user_update_active_status`): last activity now; automatic statuses become online. */
  public activity(userId: string): void {
    const now = this.deps.clock.now();
    this.deps.store
      .get([userId])
      .then((stored) => this.deps.store.put(touched(stored.get(userId), userId, now)))
      .catch(this.deps.onError);
  }
}

const putStatusWire = (userId: string, status: string): WireStatus => ({ user_id: userId, status, manual: status !== 'online', last_activity_at: 0, dnd_end_time: 0 });
