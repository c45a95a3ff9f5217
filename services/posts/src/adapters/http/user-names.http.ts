import { InternalPaths, Services, type InternalUser } from '@switchyard/contracts';
import { callJson, serviceCredential, type Keys, type ServiceCredential, type ServiceTransport } from '@switchyard/http-kit';
import type { UserNames } from '../../domain/search/user-names.port';

/** users-bots' internal by-usernames lookup (deactivated users included: their posts are still found). */
export class HttpUserNames implements UserNames {
  private readonly as: ServiceCredential;

  public constructor(private readonly transport: ServiceTransport, secret: Keys) {
    this.as = serviceCredential(Services.posts, secret);
  }

  public async idsByUsernames(usernames: readonly string[]): Promise<ReadonlyMap<string, string>> {
    const wanted = [...new Set(usernames.map((u) => u.toLowerCase()))].filter((u) => /^[a-z0-9._-]{1,64}$/.test(u));
    if (wanted.length === 0) return new Map();
    const found = await callJson<InternalUser[]>(this.transport, Services.usersBots, { method: 'POST', path: InternalPaths.usersByUsernames, as: this.as, body: { usernames: wanted } });
    return new Map((found ?? []).map((u) => [u.username.toLowerCase(), u.id] as const));
  }
}
