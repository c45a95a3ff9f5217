import { PostsInternalPaths, Services } from '@switchyard/contracts';
import { callJson, serviceCredential, type Keys, type ServiceCredential, type ServiceTransport } from '@switchyard/http-kit';
import type { Logger } from '@switchyard/logger';
import type { TeamChannels } from '../../domain/ports';

/**
 * posts' internal default-channels route, called inside `POST /teams` and `POST /teams/{id}/members` so
 * town-square and off-topic exist (and the user is in both) when those answer. A failure is logged and
 * swallowed: the team event, published just before, makes posts do the same work once it is reachable.
 */
export class HttpTeamChannels implements TeamChannels {
  private readonly as: ServiceCredential;

  public constructor(private readonly transport: ServiceTransport, secret: Keys, private readonly logger: Logger) {
    this.as = serviceCredential(Services.usersBots, secret);
  }

  public async joinDefault(teamId: string, userId: string): Promise<void> {
    try {
      await callJson<undefined>(this.transport, Services.posts, { method: 'POST', path: PostsInternalPaths.defaultChannels(teamId, userId), as: this.as });
    } catch (error) {
      this.logger.warn('default channels not joined inside the request; the team event will retry', {
        team_id: teamId,
        user_id: userId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}

/** No posts service to call (unit tests, or users-bots alone): the team event alone makes the channels. */
export const eventOnlyTeamChannels: TeamChannels = { joinDefault: async () => undefined };
