import type { Clock, PresenceStore } from '../ports';
import { effectiveStatus, idledAway, postedOnline, putStatus, touched, type StatusValue, type StoredStatus, type WireStatus } from './status';
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

  /** Those of the ids whose status is exactly `online` (who `@here` mentions); none while EnableUserStatuses is off. */
  public async onlineAmong(userIds: readonly string[]): Promise<Set<string>> {
    if (!this.settings().enabled || userIds.length === 0) return new Set();
    return new Set((await this.read(userIds)).filter((s) => s.status === 'online').map((s) => s.user_id));
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

  /**
   * Socket activity (a connect, `user_update_active_status`): last activity now; automatic statuses become
   * online (announced when they had idled into `away`).
   */
  public activity(userId: string): void {
    const now = this.deps.clock.now();
    this.deps.store
      .get([userId])
      .then(async (stored) => {
        const previous = stored.get(userId);
        const next = touched(previous, userId, now);
        await this.deps.store.put(next);
        if (previous && !previous.manual && previous.status === 'away' && next.status === 'online') await this.deps.announce(userId, 'online');
      })
      .catch(this.deps.onError);
  }

  /**
   * REST posts (`POST /posts`) by these users (a consumer's run of messages; repeats count once): each
   * goes online unless their status is manual, announced when the visible value changed. One read of the
   * stored statuses for all of them and one write per user; the sockets are asked only about users whose
   * visible status a socket could change (e.g. none for a REST-only user already online).
   */
  public async posted(userIds: readonly string[]): Promise<void> {
    const unique = [...new Set(userIds)];
    if (unique.length === 0) return;
    const stored = await this.deps.store.get(unique);
    const now = this.deps.clock.now();
    const awayAfterMs = this.deps.settings().awayAfterMs;
    const changes: { userId: string; previous: StoredStatus | undefined; next: StoredStatus }[] = [];
    const askSockets: string[] = [];
    for (const userId of unique) {
      const previous = stored.get(userId);
      if (previous?.manual) continue;
      const next = postedOnline(previous, userId, now);
      changes.push({ userId, previous, next });
      // What would be announced without a live socket and with one: presence is asked only when they differ.
      const announced = (connected: boolean): string | undefined => {
        const after = effectiveStatus(userId, next, { now, awayAfterMs, connected }).status;
        return effectiveStatus(userId, previous, { now, awayAfterMs, connected }).status === after ? undefined : after;
      };
      if (announced(false) !== announced(true)) askSockets.push(userId);
    }
    if (changes.length === 0) return;
    const online = askSockets.length > 0 ? await this.deps.presence.onlineAmong(askSockets) : new Set<string>();
    for (const { userId, previous, next } of changes) {
      await this.deps.store.put(next);
      const facts = { now, awayAfterMs, connected: online.has(userId) };
      const after = effectiveStatus(userId, next, facts).status;
      if (effectiveStatus(userId, previous, facts).status !== after) await this.deps.announce(userId, after);
    }
  }

  /**
   * The away check for these (connected) users: an automatic `online` whose last activity is older than
   * the away timeout is stored as `away` and announced once (the reference checks at each ping answer).
   */
  public async sweepAway(userIds: readonly string[]): Promise<number> {
    if (userIds.length === 0) return 0;
    const settings = this.deps.settings();
    if (!settings.enabled) return 0;
    const now = this.deps.clock.now();
    const stored = await this.deps.store.get(userIds);
    let announced = 0;
    for (const status of stored.values()) {
      if (status.manual || status.status !== 'online' || status.lastActivityAt <= 0 || now - status.lastActivityAt <= settings.awayAfterMs) continue;
      await this.deps.store.put(idledAway(status));
      await this.deps.announce(status.userId, 'away');
      announced += 1;
    }
    return announced;
  }

  /** Whether a user's new socket should hear `status_change online` (not while their status is manual). */
  public async comesOnline(userId: string): Promise<boolean> {
    const [status] = await this.read([userId]);
    return status?.manual !== true;
  }
}

const putStatusWire = (userId: string, status: string): WireStatus => ({ user_id: userId, status, manual: status !== 'online', last_activity_at: 0, dnd_end_time: 0 });
