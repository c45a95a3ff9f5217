import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Team } from '@mattermost/types/teams';
import { newChannel, postIn, type Actor } from './support/posts-fixtures';
import { parsed, type TestSocket } from './support/ws';
import { wsWorld, type WsWorld } from './support/ws-world';

/** The reference's SocketMaxMessageSizeKb: 8 KiB. */
const MAX_FRAME = 8 * 1024;
const fakeId = (n: number): string => `zz${String(n).padStart(24, '0')}`;

/**
 * Statuses across replicas, and what a hostile client can send. With REALTIME_REPLICAS=2 behind the
 * gateway (upgrades go round robin), the two sockets of a test sit on different replicas.
 */
describe('WebSocket API: statuses of every replica, frame limits, floods', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let team: Team;
  let alice: Actor;
  let bob: Actor;
  const open = (token: string): Promise<TestSocket> => world.open(token);

  before(async () => {
    world = await wsWorld();
    ({ team, alice, bob } = world);
  });
  after(async () => {
    await world?.stop();
  });

  it('when a user is connected (on any replica), then get_statuses and get_statuses_by_ids show them online until their last socket closes', async () => {
    const aliceWs = await open(alice.token);
    const bobWs = await open(bob.token);
    const never = fakeId(1);
    const byIds = await bobWs.request('get_statuses_by_ids', { user_ids: [alice.id, never] });
    assert.equal(byIds.status, 'OK');
    assert.deepEqual(byIds.data, { [alice.id]: 'online', [never]: 'offline' });
    const all = await bobWs.request('get_statuses');
    assert.equal(all.data?.[alice.id], 'online');
    assert.equal(all.data?.[bob.id], 'online');

    aliceWs.close();
    await aliceWs.closed;
    // The server learns of the close asynchronously: ask until it shows (bounded), never sleep.
    let status = 'online';
    for (let i = 0; i < 200 && status === 'online'; i += 1) status = String((await bobWs.request('get_statuses_by_ids', { user_ids: [alice.id] })).data?.[alice.id]);
    assert.equal(status, 'offline');
    assert.equal((await bobWs.request('get_statuses')).data?.[alice.id], undefined);
  });

  it('when get_statuses_by_ids names as many ids as fit in one 8 KiB frame, then every id is answered', async () => {
    const bobWs = await open(bob.token);
    const ids = [bob.id];
    while (JSON.stringify({ seq: 99, action: 'get_statuses_by_ids', data: { user_ids: [...ids, fakeId(ids.length)] } }).length <= MAX_FRAME) ids.push(fakeId(ids.length));
    assert.ok(ids.length > 250, `${ids.length} ids`);
    const reply = await bobWs.request('get_statuses_by_ids', { user_ids: ids });
    assert.equal(reply.status, 'OK');
    assert.equal(Object.keys(reply.data ?? {}).length, ids.length);
    assert.equal(reply.data?.[bob.id], 'online');
    assert.equal(reply.data?.[fakeId(1)], 'offline');
  });

  it('when a frame is larger than 8 KiB (a huge id list), then that socket is closed 1009 and the others carry on', async () => {
    const bobWs = await open(bob.token);
    const bystander = await open(alice.token);
    const ids = Array.from({ length: 400 }, (_, i) => fakeId(i));
    bobWs.send('get_statuses_by_ids', { user_ids: ids });
    const closed = await bobWs.closed;
    assert.equal(closed.code, 1009, JSON.stringify(closed));
    assert.equal((await bystander.request('ping')).data?.text, 'pong');
  });

  it('when a client floods user_typing, then every frame is answered, the socket survives, and other members still get posts', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    const typist = await open(alice.token);
    const member = await open(bob.token);
    const FLOOD = 500;
    const seqs: number[] = [];
    for (let i = 0; i < FLOOD; i += 1) seqs.push(typist.send('user_typing', { channel_id: channel.id }));
    const last = seqs.at(-1) ?? 0;
    await typist.next((f) => f.seq_reply === last, 60_000, 'reply to the last user_typing');
    const replies = typist.frames.filter((f) => typeof f.seq_reply === 'number' && seqs.includes(f.seq_reply));
    assert.equal(replies.length, FLOOD);
    for (const r of replies) assert.ok(r.status === 'OK' || (r.error as { id?: string } | undefined)?.id === 'api.websocket_handler.server_busy.app_error', JSON.stringify(r));
    assert.equal((await typist.request('ping')).data?.text, 'pong');
    const post = await postIn(alice, channel.id, 'after the flood');
    await member.event('posted', (f) => parsed(f, 'post').id === post.id, 60_000);
  });

  it('when frames arrive as binary or as something other than JSON, then JSON in a binary frame is answered and garbage closes the socket', async () => {
    const socket = await open(bob.token);
    socket.ws.send(Buffer.from(JSON.stringify({ seq: 1, action: 'ping' })), { binary: true });
    const pong = await socket.next((f) => f.seq_reply === 1);
    assert.equal(pong.data?.text, 'pong');
    socket.ws.send(Buffer.from([0x82, 0xa3, 0x73, 0x65, 0x71, 0x01, 0xff]), { binary: true });
    const closed = await socket.closed;
    assert.equal(closed.code, 1003);
    const fresh = await open(bob.token);
    assert.equal((await fresh.request('ping')).data?.text, 'pong');
  });
});
