import { InternalPaths, Services, type InternalUser } from '@switchyard/contracts';
import { isAppError } from '@switchyard/errors';
import { callJson, internalCallHeaders, type ServiceTransport } from '@switchyard/http-kit';
import type { UserDirectory } from '../../domain/ports';

/** Users and team memberships through users-bots' internal API. */
export class UsersBotsDirectory implements UserDirectory {
  private readonly headers: Record<string, string>;

  public constructor(private readonly transport: ServiceTransport, secret: string) {
    this.headers = internalCallHeaders(secret);
  }

  public async usersByIds(ids: readonly string[]): Promise<InternalUser[]> {
    if (ids.length === 0) return [];
    return callJson<InternalUser[]>(this.transport, Services.usersBots, { method: 'POST', path: InternalPaths.usersByIds, headers: this.headers, body: { ids } });
  }

  public async usersByUsernames(usernames: readonly string[]): Promise<InternalUser[]> {
    if (usernames.length === 0) return [];
    return callJson<InternalUser[]>(this.transport, Services.usersBots, { method: 'POST', path: InternalPaths.usersByUsernames, headers: this.headers, body: { usernames } });
  }

  public async teamRoles(teamId: string, userId: string): Promise<string | undefined> {
    if (!/^[a-z0-9]{26}$/.test(teamId) || !/^[a-z0-9]{26}$/.test(userId)) return undefined;
    try {
      const member = await callJson<{ roles: string; delete_at: number }>(this.transport, Services.usersBots, {
        method: 'GET',
        path: `${InternalPaths.teamMember}/${teamId}/members/${userId}`,
        headers: this.headers,
      });
      return member.delete_at > 0 ? undefined : member.roles;
    } catch (error) {
      if (isAppError(error) && (error.statusCode === 404 || error.statusCode === 400)) return undefined;
      throw error;
    }
  }
}
