import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import { eventually } from './support/eventually';
import { assertJson, raw } from './support/http';
import { newChannel, postIn, teamMember, type Actor } from './support/posts-fixtures';
import { parsed, type TestSocket } from './support/ws';
import { wsWorld, type WsWorld } from './support/ws-world';

describe('WebSocket posted: who @here, @channel and attachments mention (the reference\'s mention keywords)', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let carol: Actor;
  let channel: Channel;
  let bobSocket: TestSocket;
  let carolSocket: TestSocket;

  const statusOf = async (userId: string): Promise<string> => {
    const response = await raw(world.target.url, 'GET', `/api/v4/users/${userId}/status`, { token: world.alice.token });
    assertJson(response, 200);
    return String(response.json.status);
  };

  /** The `mentions` each socket's `posted` of that post carries (undefined: none). */
  const mentionsOf = async (postId: string, sockets: readonly TestSocket[]): Promise<(string | undefined)[]> => {
    const out: (string | undefined)[] = [];
    for (const socket of sockets) {
      const event = await socket.event('posted', (f) => parsed(f, 'post').id === postId);
      out.push(event.data?.mentions as string | undefined);
    }
    return out;
  };

  before(async () => {
    world = await wsWorld();
    const { target, admin, team, alice, bob } = world;
    carol = await teamMember(target.url, admin, team, 'carol');
    channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    await alice.client.addToChannel(carol.id, channel.id);
    bobSocket = await world.open(bob.token);
    carolSocket = await world.open(carol.token);
    // Carol chooses do-not-disturb; Bob is online through his socket.
    assertJson(await raw(target.url, 'PUT', '/api/v4/users/me/status', { token: carol.token, body: { user_id: carol.id, status: 'dnd' } }), 200);
    await eventually('bob online, carol dnd', async () => ((await statusOf(bob.id)) === 'online' && (await statusOf(carol.id)) === 'dnd' ? true : undefined));
  });
  after(() => world?.stop());

  it('when a member says @here, then only the members whose status is online are mentioned; @channel mentions the dnd one too', async () => {
    const { alice, bob } = world;
    const here = await postIn(alice, channel.id, 'anyone @here?');
    assert.deepEqual(await mentionsOf(here.id, [bobSocket, carolSocket]), [JSON.stringify([bob.id]), undefined]);
    const all = await postIn(alice, channel.id, 'heads up @channel');
    assert.deepEqual(await mentionsOf(all.id, [bobSocket, carolSocket]), [JSON.stringify([bob.id]), JSON.stringify([carol.id])]);
  });

  it('when an attachment\'s text names a member, then that member is mentioned as by the message', async () => {
    const { alice } = world;
    const post = await postIn(alice, channel.id, 'build finished', { props: { attachments: [{ pretext: 'results', text: `ping @${carol.username}` }] } });
    assert.deepEqual(await mentionsOf(post.id, [bobSocket, carolSocket]), [undefined, JSON.stringify([carol.id])]);
  });
});
