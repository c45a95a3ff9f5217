import { InternalPaths, PostsInternalPaths, Services, type InternalUser, type ResolvedSession, type UserUpdatedCopies } from '@switchyard/contracts';
import { isAppError } from '@switchyard/errors';
import { callJson, serviceCredential, type Keys, type ServiceCredential, type ServiceTransport } from '@switchyard/http-kit';
import type { MembershipSource, SessionSource, UserSource } from '../../domain/ports';

interface TeamMemberWire {
  readonly delete_at?: number;
}

function isStatus(error: unknown, ...codes: number[]): boolean {
  return isAppError(error) && codes.includes(error.statusCode);
}

/** users-bots and posts through their internal APIs (in-process in the embedded runtime, HTTP otherwise). */
export class HttpDirectory implements SessionSource, MembershipSource, UserSource {
  private readonly as: ServiceCredential;

  public constructor(private readonly transport: ServiceTransport, secret: Keys) {
    this.as = serviceCredential(Services.realtime, secret);
  }

  public async resolve(token: string): Promise<ResolvedSession | undefined> {
    try {
      return await callJson<ResolvedSession>(this.transport, Services.usersBots, { method: 'POST', path: InternalPaths.resolveToken, as: this.as, body: { token } });
    } catch (error) {
      if (isStatus(error, 400, 401, 404)) return undefined;
      throw error;
    }
  }

  public async channelMemberIds(channelId: string): Promise<readonly string[] | undefined> {
    try {
      const answer = await callJson<{ user_ids: string[] }>(this.transport, Services.posts, { method: 'GET', path: PostsInternalPaths.channelMemberIds(channelId), as: this.as });
      return answer.user_ids;
    } catch (error) {
      if (isStatus(error, 400, 404)) return undefined;
      throw error;
    }
  }

  public async isTeamMember(teamId: string, userId: string): Promise<boolean> {
    try {
      const member = await callJson<TeamMemberWire>(this.transport, Services.usersBots, {
        method: 'GET',
        path: `${InternalPaths.teamMember}/${encodeURIComponent(teamId)}/members/${encodeURIComponent(userId)}`,
        as: this.as,
      });
      return (member?.delete_at ?? 0) === 0;
    } catch (error) {
      if (isStatus(error, 400, 404)) return false;
      throw error;
    }
  }

  public async userUpdatedCopies(id: string): Promise<UserUpdatedCopies | undefined> {
    try {
      return await callJson<UserUpdatedCopies>(this.transport, Services.usersBots, { method: 'POST', path: InternalPaths.userUpdatedCopies, as: this.as, body: { id } });
    } catch (error) {
      if (isStatus(error, 404)) return undefined;
      throw error;
    }
  }

  public async usersByIds(ids: readonly string[]): Promise<readonly InternalUser[]> {
    if (ids.length === 0) return [];
    return callJson<InternalUser[]>(this.transport, Services.usersBots, { method: 'POST', path: InternalPaths.usersByIds, as: this.as, body: { ids } });
  }
}
