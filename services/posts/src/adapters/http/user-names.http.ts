import { InternalPaths, Services, type InternalUser } from '@switchyard/contracts';
import { callJson, serviceCredential, type Keys, type ServiceCredential, type ServiceTransport } from '@switchyard/http-kit';
import type { UserNames } from '../../domain/search/user-names.port';

/** How long a username → id answer is reused (a rename shows at once when users.events tells: forget; else within this). */
const CACHE_MS = 10_000;
const MAX_CACHED = 10_000;

/** users-bots' internal by-usernames lookup (deactivated users included: their posts are still found). */
export class HttpUserNames implements UserNames {
  private readonly as: ServiceCredential;
  private readonly known = new Map<string, { readonly id: string; readonly at: number }>();

  public constructor(private readonly transport: ServiceTransport, secret: Keys, private readonly now: () => number = Date.now) {
    this.as = serviceCredential(Services.posts, secret);
  }

  public async idsByUsernames(usernames: readonly string[]): Promise<ReadonlyMap<string, string>> {
    const wanted = [...new Set(usernames.map((u) => u.toLowerCase()))].filter((u) => /^[a-z0-9._-]{1,64}$/.test(u));
    const now = this.now();
    const out = new Map<string, string>();
    const missing = wanted.filter((name) => {
      const hit = this.known.get(name);
      if (hit && now - hit.at < CACHE_MS) out.set(name, hit.id);
      return out.get(name) === undefined;
    });
    if (missing.length === 0) return out;
    const found = await callJson<InternalUser[]>(this.transport, Services.usersBots, { method: 'POST', path: InternalPaths.usersByUsernames, as: this.as, body: { usernames: missing } });
    if (this.known.size >= MAX_CACHED) this.known.clear();
    for (const user of found ?? []) {
      const name = user.username.toLowerCase();
      out.set(name, user.id);
      this.known.set(name, { id: user.id, at: now });
    }
    return out;
  }

  /** The user's cached names leave (a scan: users.events are rare next to look-ups). */
  public forget(userId: string): void {
    for (const [name, hit] of this.known) if (hit.id === userId) this.known.delete(name);
  }
}
