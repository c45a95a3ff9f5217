import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Post } from '@mattermost/types/posts';
import { assertJson, raw, type RawResponse } from './support/http';
import { newChannel, outsider, postIn, type Actor } from './support/posts-fixtures';
import { parsed, type TestSocket } from './support/ws';
import { wsWorld, type WsWorld } from './support/ws-world';

/** A JSON value of an answer (as loosely typed as RawResponse's). */
type Json = RawResponse['json'];

describe('thread participants as replies come and go (collapsed threads)', { timeout: 120_000 }, () => {
  let world: WsWorld;
  let alice: Actor;
  let bob: Actor;

  before(async () => {
    world = await wsWorld({ alsoRestore: ['CollapsedThreads'] });
    ({ alice, bob } = world);
  });
  after(async () => {
    await world?.stop();
  });

  /** The participants' ids in the thread_updated that `reply` caused (its thread's last reply is `reply`). */
  const participantsAfter = async (socket: TestSocket, reply: Post): Promise<string[]> => {
    const frame = await socket.event('thread_updated', (f) => parsed<Json>(f, 'thread').id === reply.root_id && parsed<Json>(f, 'thread').last_reply_at === reply.create_at);
    return (parsed<Json>(frame, 'thread').participants as Json[]).map((p) => p.id as string);
  };

  it('when a participant\'s only reply is deleted, then later replies\' thread_updated list the others, and the author comes back last with a new reply', async () => {
    const carol = await outsider(world.target.url, world.admin, 'carol');
    await world.admin.client.addToTeam(world.team.id, carol.id);
    const channel = await newChannel(alice, world.team);
    for (const actor of [bob, carol]) await alice.client.addToChannel(actor.id, channel.id);
    const root = await postIn(alice, channel.id, 'who takes part?');
    const socket = await world.open(alice.token);

    const first = await postIn(bob, channel.id, 'me', { root_id: root.id });
    assert.deepEqual(await participantsAfter(socket, first), [bob.id]);
    const carols = await postIn(carol, channel.id, 'me too', { root_id: root.id });
    assert.deepEqual(await participantsAfter(socket, carols), [bob.id, carol.id]);
    const again = await postIn(bob, channel.id, 'me again', { root_id: root.id });
    assert.deepEqual(await participantsAfter(socket, again), [bob.id, carol.id], 'each author once, in order of first reply');

    assertJson(await raw(world.target.url, 'DELETE', `/api/v4/posts/${carols.id}`, { token: carol.token }), 200);
    const afterDelete = await postIn(bob, channel.id, 'just me now', { root_id: root.id });
    assert.deepEqual(await participantsAfter(socket, afterDelete), [bob.id], 'the deleted reply\'s author is no longer a participant');
    assert.equal((await alice.client.getPost(root.id)).reply_count, 3);

    const back = await postIn(carol, channel.id, 'back again', { root_id: root.id });
    assert.deepEqual(await participantsAfter(socket, back), [bob.id, carol.id]);
    const post = await alice.client.getPost(root.id);
    assert.equal(post.participants ?? null, null, 'a post never shows the participants kept for its thread');
    assert.ok(!('participant_ids' in post));
  });
});
