import { RealtimeInternalPaths, Services } from '@switchyard/contracts';
import { callJson, serviceCredential, type Keys, type ServiceCredential, type ServiceTransport } from '@switchyard/http-kit';
import type { OnlineUsers } from '../../domain/ports';

/** realtime's internal `online` lookup; a failure answers nobody online (an `@here` then mentions no one). */
export class HttpOnlineUsers implements OnlineUsers {
  private readonly as: ServiceCredential;

  public constructor(private readonly transport: ServiceTransport, secret: Keys) {
    this.as = serviceCredential(Services.posts, secret);
  }

  public async online(userIds: readonly string[]): Promise<string[]> {
    if (userIds.length === 0) return [];
    try {
      const answer = await callJson<{ online?: unknown }>(this.transport, Services.realtime, { method: 'POST', path: RealtimeInternalPaths.onlineUsers, as: this.as, body: { ids: userIds } });
      const online = answer?.online;
      return Array.isArray(online) ? online.filter((id): id is string => typeof id === 'string') : [];
    } catch {
      return [];
    }
  }
}
