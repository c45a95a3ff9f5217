import { Services } from '@switchyard/contracts';
import { isAppError } from '@switchyard/errors';
import { callJson, serviceCredential, type Keys, type ServiceCredential, type ServiceTransport } from '@switchyard/http-kit';
import type { ChannelMemberIds } from '../../domain/search/channel-members.port';

/** posts' internal member-ids route. */
export class HttpChannelMemberIds implements ChannelMemberIds {
  private readonly as: ServiceCredential;

  public constructor(private readonly transport: ServiceTransport, secret: Keys) {
    this.as = serviceCredential(Services.usersBots, secret);
  }

  public async memberIds(channelId: string): Promise<readonly string[] | undefined> {
    try {
      const answer = await callJson<{ user_ids?: string[] }>(this.transport, Services.posts, { method: 'GET', path: `/internal/v1/channels/${encodeURIComponent(channelId)}/member-ids`, as: this.as });
      return answer?.user_ids ?? [];
    } catch (error) {
      if (isAppError(error) && (error.statusCode === 404 || error.statusCode === 400)) return undefined;
      throw error;
    }
  }
}

/** No posts service (unit tests, users-bots alone): no channel is known. */
export const noChannelMembers: ChannelMemberIds = { memberIds: async () => undefined };
