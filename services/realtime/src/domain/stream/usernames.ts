import type { Clock, UserSource } from '../ports';

/** How long a username is reused, and how many are kept. */
const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

/**
 * Usernames of long-poll consumers (GET /api/v4/events: a replayed post mentions its viewer by username),
 * reused for 30 s: a bot that polls all the time would otherwise cost a users-bots lookup per poll. A renamed
 * user's mentions follow within the 30 s.
 */
export class Usernames {
  private readonly known = new Map<string, { readonly username: string; readonly until: number }>();

  public constructor(
    private readonly users: UserSource,
    private readonly clock: Clock,
  ) {}

  public async of(userId: string): Promise<string> {
    const now = this.clock.now();
    const hit = this.known.get(userId);
    if (hit && hit.until > now) return hit.username;
    const [user] = await this.users.usersByIds([userId]);
    const username = user?.username ?? '';
    this.known.delete(userId);
    this.known.set(userId, { username, until: now + TTL_MS });
    if (this.known.size > MAX_ENTRIES) {
      const oldest = this.known.keys().next().value;
      if (oldest !== undefined) this.known.delete(oldest);
    }
    return username;
  }
}
