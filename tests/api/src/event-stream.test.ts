import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Team } from '@mattermost/types/teams';
import { assertAppError, assertJson, raw, sleep } from './support/http';
import { newChannel, postIn, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';
import { parsed, type Frame, type TestSocket } from './support/ws';
import { wsWorld, type WsWorld } from './support/ws-world';

// Spec rows "Event cursor" and "Event stream over HTTP": a cursor on every frame, resume over WebSocket
// (?cursor=) and the same stream over HTTP (GET /api/v4/events).

const postIds = (frames: readonly Frame[]): string[] => frames.filter((f) => f.event === 'posted').map((f) => parsed<{ id: string }>(f, 'post').id);

describe('event stream: cursors, resume over WebSocket and GET /api/v4/events', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let target: Target;
  let team: Team;
  let alice: Actor;
  let bob: Actor;

  before(async () => {
    world = await wsWorld();
    ({ target, team, alice, bob } = world);
  });
  after(async () => {
    await world?.stop();
  });

  const openWithCursor = async (token: string, cursor: string): Promise<{ socket: TestSocket; hello: Frame }> => {
    const socket = await world.connect({ token, query: `cursor=${encodeURIComponent(cursor)}` });
    return { socket, hello: await socket.event('hello') };
  };

  it('when a socket reconnects with the cursor of the last event it got, then hello says complete and it gets what it missed in order, then live, none twice', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    const first = await world.open(bob.token);
    const hello = first.frames.find((f) => f.event === 'hello');
    assert.equal(typeof hello?.cursor, 'string', 'hello carries a cursor');
    assert.equal(hello?.data?.resume, 'none');
    const p1 = await postIn(alice, channel.id, 'one');
    const got = await first.event('posted', (f) => parsed<{ id: string }>(f, 'post').id === p1.id);
    assert.equal(typeof got.cursor, 'string', 'every event carries a cursor');
    first.close();
    const missed = [await postIn(alice, channel.id, 'two'), await postIn(alice, channel.id, 'three')];
    const { socket, hello: resumedHello } = await openWithCursor(bob.token, String(got.cursor));
    assert.equal(resumedHello.data?.resume, 'complete');
    const p4 = await postIn(alice, channel.id, 'four');
    await socket.event('posted', (f) => parsed<{ id: string }>(f, 'post').id === p4.id);
    assert.deepEqual(postIds(socket.frames), [...missed.map((p) => p.id), p4.id]);
    assert.ok(socket.frames.every((f) => f.seq_reply !== undefined || typeof f.cursor === 'string'));
    socket.close();
  });

  it('when a resume replays a window in which the user joined a channel, then a post made there before the join is not replayed, one after it is', async () => {
    const channel = await newChannel(alice, team);
    const probe = await world.open(bob.token);
    const cursor = String(probe.frames.find((f) => f.event === 'hello')?.cursor);
    probe.close();
    // Each step delivered live (alice's socket) before the next: the replay window holds them in this order.
    const watcher = await world.open(alice.token);
    const before = await postIn(alice, channel.id, 'before bob');
    await watcher.event('posted', (f) => parsed<{ id: string }>(f, 'post').id === before.id);
    await alice.client.addToChannel(bob.id, channel.id);
    await watcher.event('user_added', (f) => f.data?.user_id === bob.id);
    const afterJoin = await postIn(alice, channel.id, 'after bob joined');
    await watcher.event('posted', (f) => parsed<{ id: string }>(f, 'post').id === afterJoin.id);
    watcher.close();
    const { socket, hello } = await openWithCursor(bob.token, cursor);
    assert.equal(hello.data?.resume, 'complete');
    await socket.event('posted', (f) => parsed<{ id: string }>(f, 'post').id === afterJoin.id);
    assert.ok(!postIds(socket.frames).includes(before.id), 'a post bob could not see when it was made');
    assert.ok(socket.frames.some((f) => f.event === 'user_added' && f.data?.user_id === bob.id));
    socket.close();
  });

  it('when a cursor is another user\'s, changed or garbage, then hello says invalid and nothing is replayed', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    const aliceSocket = await world.open(alice.token);
    const aliceCursor = String(aliceSocket.frames.find((f) => f.event === 'hello')?.cursor);
    const post = await postIn(alice, channel.id, 'not for forged cursors');
    // Delivered live before the sockets below open: anything they get of it would be a replay.
    await aliceSocket.event('posted', (f) => parsed<{ id: string }>(f, 'post').id === post.id);
    aliceSocket.close();
    const changed = `${aliceCursor.slice(0, 4)}${aliceCursor[4] === 'A' ? 'B' : 'A'}${aliceCursor.slice(5)}`;
    for (const [who, cursor] of [
      [bob, aliceCursor],
      [alice, changed],
      [alice, 'not-a-cursor'],
    ] as const) {
      const { socket, hello } = await openWithCursor(who.token, cursor);
      assert.equal(hello.data?.resume, 'invalid', cursor);
      await socket.request('ping');
      assert.deepEqual(postIds(socket.frames), []);
      socket.close();
    }
  });

  it('when a bot is restarted 50 times at random points while posts keep coming, then it handles every post once, in order', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    const POSTS = 100;
    let socket = await world.open(bob.token);
    let cursor = String(socket.frames.find((f) => f.event === 'hello')?.cursor);
    let taken = socket.frames.length;
    const handled: string[] = [];
    const restartAt = new Set<number>();
    while (restartAt.size < 50) restartAt.add(Math.floor(Math.random() * POSTS));
    const sent: string[] = [];
    for (let n = 0; n < POSTS; n += 1) {
      sent.push((await postIn(alice, channel.id, `n${n}`)).id);
      if (!restartAt.has(n)) continue;
      // A crash: it finished a random part of what it received; the rest is lost with it.
      const frames = socket.frames.slice(taken).filter((f) => f.event === 'posted');
      for (const frame of frames.slice(0, Math.floor(Math.random() * (frames.length + 1)))) {
        handled.push(parsed<{ id: string }>(frame, 'post').id);
        cursor = String(frame.cursor);
      }
      socket.close();
      socket = await world.connect({ token: bob.token, query: `cursor=${encodeURIComponent(cursor)}` });
      const hello = await socket.event('hello');
      assert.equal(hello.data?.resume, 'complete');
      taken = socket.frames.indexOf(hello) + 1;
    }
    await socket.event('posted', (f) => parsed<{ id: string }>(f, 'post').id === sent[sent.length - 1]);
    handled.push(...socket.frames.slice(taken).filter((f) => f.event === 'posted').map((f) => parsed<{ id: string }>(f, 'post').id));
    assert.deepEqual(handled, sent);
    socket.close();
  });

  it('when a bot polls GET /api/v4/events, then it gets the events after its cursor with the next cursor, waits when there are none, and bad cursors are refused', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    const start = await raw(target.url, 'GET', '/api/v4/events', { token: bob.token });
    assertJson(start, 200);
    assert.deepEqual(start.json.events, []);
    assert.equal(typeof start.json.cursor, 'string');
    const posts = [await postIn(alice, channel.id, 'a'), await postIn(alice, channel.id, 'b')];
    const seen: string[] = [];
    let cursor = String(start.json.cursor);
    for (let round = 0; round < 10 && seen.length < 2; round += 1) {
      const page = await raw(target.url, 'GET', `/api/v4/events?cursor=${encodeURIComponent(cursor)}&wait=5&limit=1`, { token: bob.token });
      assertJson(page, 200);
      assert.ok(page.json.events.length <= 1);
      for (const event of page.json.events as Frame[]) {
        assert.equal(typeof event.cursor, 'string');
        assert.equal(event.seq, undefined);
        if (event.event === 'posted') seen.push(parsed<{ id: string }>(event, 'post').id);
      }
      cursor = String(page.json.cursor);
    }
    assert.deepEqual(seen, posts.map((p) => p.id));
    const started = Date.now();
    const idle = await raw(target.url, 'GET', `/api/v4/events?cursor=${encodeURIComponent(cursor)}&wait=1`, { token: bob.token });
    assertJson(idle, 200);
    assert.deepEqual(idle.json.events, []);
    assert.ok(Date.now() - started >= 900, 'answered after its wait');
    assertAppError(await raw(target.url, 'GET', `/api/v4/events?cursor=${encodeURIComponent(cursor)}`, { token: alice.token }), 400, 'api.events.cursor_invalid.app_error');
    assertAppError(await raw(target.url, 'GET', `/api/v4/events?cursor=${encodeURIComponent(`${cursor}x`)}`, { token: bob.token }), 400, 'api.events.cursor_invalid.app_error');
    assertAppError(await raw(target.url, 'GET', '/api/v4/events?cursor=x.y.z', { token: bob.token }), 400, 'api.events.cursor_invalid.app_error');
    assertAppError(await raw(target.url, 'GET', '/api/v4/events?wait=61', { token: bob.token }), 400, 'api.context.invalid_param.app_error');
    assertAppError(await raw(target.url, 'GET', '/api/v4/events?limit=0', { token: bob.token }), 400, 'api.context.invalid_param.app_error');
    assertAppError(await raw(target.url, 'GET', '/api/v4/events'), 401, 'api.context.session_expired.app_error');
  });

  it('when a bot\'s poll is waiting and posts come in a channel it is not in, then in one it is in, then it is answered with that post alone before its wait ends', async () => {
    const mine = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, mine.id);
    const others = await newChannel(alice, team);
    const start = await raw(target.url, 'GET', '/api/v4/events', { token: bob.token });
    const started = Date.now();
    const waiting = raw(target.url, 'GET', `/api/v4/events?cursor=${encodeURIComponent(String(start.json.cursor))}&wait=30`, { token: bob.token });
    await sleep(500);
    await postIn(alice, others.id, 'not for bob');
    await sleep(300);
    const post = await postIn(alice, mine.id, 'for bob');
    const page = await waiting;
    assertJson(page, 200);
    assert.deepEqual(postIds(page.json.events as Frame[]), [post.id]);
    assert.ok(Date.now() - started < 20_000, 'answered when the post came, not at the end of its wait');
  });
});
