import type { UserMentionSettings } from '@switchyard/contracts';
import { ReadThroughCache } from '@switchyard/read-cache';
import type { MentionSettingsSource } from '../../domain/ports';

/** How long a user's settings are reused; a change (PUT /users/{id}/patch) evicts them at once through users.events. */
const DEFAULT_TTL_MS = 60_000;
const MAX_ENTRIES = 100_000;
/** Cached for users with the default settings (most users): they are not asked for again within the TTL. */
const DEFAULTS = 'defaults' as const;

/**
 * Mention settings with a read cache per user, defaults included: a post in a channel whose members were all seen
 * within the TTL asks users-bots nothing; the others are asked for in one call.
 */
export class CachingMentionSettings implements MentionSettingsSource {
  private readonly entries: ReadThroughCache<UserMentionSettings | typeof DEFAULTS>;

  public constructor(
    private readonly source: MentionSettingsSource,
    ttlMs = DEFAULT_TTL_MS,
    now: () => number = Date.now,
  ) {
    this.entries = new ReadThroughCache({ ttlMs, maxEntries: MAX_ENTRIES, now });
  }

  public async of(userIds: readonly string[]): Promise<ReadonlyMap<string, UserMentionSettings>> {
    const out = new Map<string, UserMentionSettings>();
    const missing: string[] = [];
    for (const id of new Set(userIds)) {
      const hit = this.entries.peek(id);
      if (hit === undefined) missing.push(id);
      else if (hit !== DEFAULTS) out.set(id, hit);
    }
    if (missing.length === 0) return out;
    const loaded = await this.source.of(missing);
    for (const id of missing) {
      const settings = loaded.get(id);
      if (settings) out.set(id, settings);
      await this.entries.get(id, () => Promise.resolve(settings ?? DEFAULTS));
    }
    return out;
  }

  /** Drops a user's cached settings (the user changed). */
  public evict(userId: string): void {
    this.entries.evict(userId);
  }
}
