import type { UserProfile } from '@mattermost/types/users';
import { createUser, login } from './fixtures';
import { assertJson, raw } from './http';
import type { Actor } from './posts-fixtures';
import { parsed, type TestSocket } from './ws';
import type { WsWorld } from './ws-world';

/** What the mention suites ask of a world (read when called: the world is made in `before`). */
export function mentionActors(worldOf: () => WsWorld) {
  return {
    /** A team member created with these notify props (and first name), logged in. */
    async memberWith(prefix: string, notifyProps: Record<string, string>, firstName = ''): Promise<Actor> {
      const world = worldOf();
      const created = await createUser(world.admin.client, prefix, { first_name: firstName, notify_props: notifyProps } as Partial<UserProfile>);
      await world.admin.client.addToTeam(world.team.id, created.user.id);
      const session = await login(world.target.url, created.username, created.password);
      return { client: session.client, token: session.token, id: created.user.id, username: created.username };
    },
    /** The actor's `mention_count` in the channel (GET .../unread). */
    async mentionCount(actor: Actor, channelId: string): Promise<number> {
      const response = await raw(worldOf().target.url, 'GET', `/api/v4/users/${actor.id}/channels/${channelId}/unread`, { token: actor.token });
      assertJson(response, 200);
      return response.json.mention_count as number;
    },
    /** The `mentions` of that post's `posted` on the socket (undefined: none). */
    async mentionsOn(socket: TestSocket, postId: string): Promise<string | undefined> {
      const event = await socket.event('posted', (f) => parsed(f, 'post').id === postId);
      return event.data?.mentions as string | undefined;
    },
  };
}
