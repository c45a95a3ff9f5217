import { InternalPaths, Services, type IntegrationSender, type InternalUser } from '@switchyard/contracts';
import { isAppError } from '@switchyard/errors';
import { callJson, serviceCredential, type Keys, type ServiceCredential, type ServiceTransport } from '@switchyard/http-kit';
import type { UserDirectory } from '../../domain/ports';

/** Users and team memberships through users-bots' internal API. */
export class UsersBotsDirectory implements UserDirectory {
  private readonly as: ServiceCredential;

  public constructor(private readonly transport: ServiceTransport, secret: Keys) {
    this.as = serviceCredential(Services.incomingHooks, secret);
  }

  public async usersByIds(ids: readonly string[]): Promise<InternalUser[]> {
    if (ids.length === 0) return [];
    return callJson<InternalUser[]>(this.transport, Services.usersBots, { method: 'POST', path: InternalPaths.usersByIds, as: this.as, body: { ids } });
  }

  public async usersByUsernames(usernames: readonly string[]): Promise<InternalUser[]> {
    if (usernames.length === 0) return [];
    return callJson<InternalUser[]>(this.transport, Services.usersBots, { method: 'POST', path: InternalPaths.usersByUsernames, as: this.as, body: { usernames } });
  }

  public async teamRoles(teamId: string, userId: string): Promise<string | undefined> {
    if (!/^[a-z0-9]{26}$/.test(teamId) || !/^[a-z0-9]{26}$/.test(userId)) return undefined;
    try {
      const member = await callJson<{ roles: string; delete_at: number }>(this.transport, Services.usersBots, {
        method: 'GET',
        path: `${InternalPaths.teamMember}/${teamId}/members/${userId}`,
        as: this.as,
      });
      return member.delete_at > 0 ? undefined : member.roles;
    } catch (error) {
      if (isAppError(error) && (error.statusCode === 404 || error.statusCode === 400)) return undefined;
      throw error;
    }
  }

  public async integrationSender(username: string): Promise<{ readonly userId: string; readonly isBot: boolean }> {
    const sender = await callJson<IntegrationSender>(this.transport, Services.usersBots, { method: 'POST', path: InternalPaths.integrationBot, as: this.as, body: { username } });
    return { userId: sender.user_id, isBot: sender.is_bot };
  }
}
