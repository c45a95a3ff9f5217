import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Team } from '@mattermost/types/teams';
import { issueToken, patchConfig, type AdminSession } from './support/fixtures';
import { raw } from './support/http';
import { newChannel, postIn, teamBot, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';
import WebSocket from 'ws';
import { OfficialSocket } from './support/mm-websocket';
import { parsed, websocketUrl, type Frame, type OpenOptions, type TestSocket } from './support/ws';
import { wsWorld, type WsWorld } from './support/ws-world';

const ID = /^[a-z0-9]{26}$/;
const BROADCAST_KEYS = ['channel_id', 'connection_id', 'omit_connection_id', 'omit_users', 'team_id', 'user_id'];

/** Waits for the upgrade's answer: the status of a refused upgrade, or 101. */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(websocketUrl(url), { headers });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
    });
    ws.once('error', (error) => reject(error));
  });
}

function assertBroadcast(frame: Frame, expected: Record<string, unknown>): void {
  const b = frame.broadcast ?? {};
  for (const key of BROADCAST_KEYS) assert.ok(key in b, `broadcast.${key} missing in ${JSON.stringify(b)}`);
  for (const [key, value] of Object.entries(expected)) assert.deepEqual(b[key], value, `broadcast.${key}`);
}

describe('WebSocket API: connect, authenticate, posted, who receives what', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let alice: Actor;
  let bob: Actor;
  const open = (options: OpenOptions): Promise<TestSocket> => world.connect(options);

  before(async () => {
    world = await wsWorld({ alsoRestore: ['EnableUserAccessTokens'] });
    ({ target, admin, team, alice, bob } = world);
  });
  after(() => world?.stop());

  it('when a socket connects with an Authorization header, then hello is the first frame with seq 0, a connection id and the server version', async () => {
    const socket = await open({ token: alice.token });
    const hello = await socket.event('hello');
    assert.equal(socket.frames[0], hello);
    assert.equal(hello.seq, 0);
    assert.match(String(hello.data?.connection_id), ID);
    assert.match(String(hello.data?.server_version), /^\d+\.\d+\.\d+\.[^.]+\.[^.]*\.(true|false)$/);
    assertBroadcast(hello, { user_id: alice.id, channel_id: '', team_id: '', omit_users: null });
  });

  it('when a socket connects with the MMAUTHTOKEN cookie and no Origin, then hello; with a foreign Origin the upgrade is refused with 403', async () => {
    const socket = await open({ cookie: alice.token });
    const hello = await socket.event('hello');
    assertBroadcast(hello, { user_id: alice.id });
    const host = new URL(target.url).host;
    assert.equal(await upgradeStatus(target.url, { cookie: `MMAUTHTOKEN=${alice.token}`, origin: 'https://evil.example' }), 403);
    assert.equal(await upgradeStatus(target.url, { cookie: `MMAUTHTOKEN=${alice.token}`, origin: `http://${host}` }), 101);
  });

  it('when a plain GET reaches the websocket route, then 400 as the reference websocket library answers', async () => {
    const res = await raw(target.url, 'GET', '/api/v4/websocket');
    // Not an AppError: the reference's websocket library answers the bare status text.
    assert.equal(res.status, 400);
    assert.equal(res.text.trim(), 'Bad Request');
  });

  it('when an unauthenticated socket sends authentication_challenge, then hello (seq 0) arrives before the OK reply with seq_reply', async () => {
    const socket = await open({});
    const reply = await socket.request('authentication_challenge', { token: bob.token });
    assert.deepEqual(reply, { status: 'OK', seq_reply: 1 });
    const helloIndex = socket.frames.findIndex((f) => f.event === 'hello');
    assert.ok(helloIndex >= 0 && helloIndex < socket.frames.indexOf(reply), 'hello before the reply');
    assert.equal(socket.frames[helloIndex]?.seq, 0);
    assertBroadcast(socket.frames[helloIndex] as Frame, { user_id: bob.id });
    // A second challenge on an authenticated socket gets no reply; the next action does.
    socket.send('authentication_challenge', { token: bob.token });
    const ping = await socket.request('ping');
    assert.equal(ping.seq_reply, 3);
    assert.equal(socket.frames.filter((f) => f.seq_reply === 2).length, 0);
  });

  it('when a socket opens with an invalid token, then it stays open unauthenticated: actions get no reply, a bad challenge closes it', async () => {
    const socket = await open({ token: 'x'.repeat(26) });
    socket.send('ping');
    const closed = socket.closed;
    socket.send('authentication_challenge', { token: 'not-a-token' });
    await closed;
    assert.equal(socket.frames.length, 0);
  });

  it('when ping is sent, then the reply carries pong, the version and the server time; unknown actions fail with bad_action', async () => {
    const socket = await open({ token: alice.token });
    await socket.event('hello');
    const ping = await socket.request('ping');
    assert.equal(ping.status, 'OK');
    assert.equal(ping.data?.text, 'pong');
    assert.equal(typeof ping.data?.version, 'string');
    assert.equal(typeof ping.data?.server_time, 'number');
    assert.equal('seq' in ping, false);
    const bad = await socket.request('no_such_action');
    assert.equal(bad.status, 'FAIL');
    assert.deepEqual(bad.error, { id: 'api.web_socket_router.bad_action.app_error', message: 'Unknown WebSocket action.', detailed_error: '', request_id: '', status_code: 500 });
  });

  it('when a member posts, then every member socket gets posted with the post as a JSON string and the reference data; seq has no gaps', async () => {
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    const aliceSocket = await open({ token: alice.token });
    const bobSocket = await open({ token: bob.token });
    await aliceSocket.event('hello');
    await bobSocket.event('hello');
    const post = await postIn(alice, channel.id, `hello @${bob.username}`);
    for (const socket of [aliceSocket, bobSocket]) {
      const event = await socket.event('posted', (f) => parsed(f, 'post').id === post.id);
      assertBroadcast(event, { channel_id: channel.id, user_id: '', team_id: '' });
      const data = event.data ?? {};
      assert.equal(data.channel_type, 'O');
      assert.equal(data.channel_name, channel.name);
      assert.equal(data.channel_display_name, channel.display_name);
      assert.equal(data.sender_name, `@${alice.username}`);
      assert.equal(data.team_id, team.id);
      assert.equal(data.set_online, true);
      const wire = parsed(event, 'post');
      assert.equal(wire.message, post.message);
      assert.equal(wire.user_id, alice.id);
      assert.equal(wire.channel_id, channel.id);
      assert.deepEqual(Object.keys(data), [...Object.keys(data)].sort(), 'data keys in alphabetical order');
    }
    const bobEvent = bobSocket.events().find((f) => f.event === 'posted');
    assert.equal(bobEvent?.data?.mentions, JSON.stringify([bob.id]));
    assert.equal('mentions' in (aliceSocket.events().find((f) => f.event === 'posted')?.data ?? {}), false);
    for (const socket of [aliceSocket, bobSocket]) {
      const seqs = socket.events().map((f) => f.seq);
      assert.deepEqual(seqs, seqs.map((_, i) => i));
    }
  });

  it('when someone posts in a private channel, then a user outside it gets nothing from it', async () => {
    const secret = await newChannel(alice, team, 'P');
    const aliceSocket = await open({ token: alice.token });
    const bobSocket = await open({ token: bob.token });
    await aliceSocket.event('hello');
    await bobSocket.event('hello');
    const post = await postIn(alice, secret.id, 'private words');
    await aliceSocket.event('posted', (f) => parsed(f, 'post').id === post.id);
    // Every socket of this replica got its copy in the same pass; bob's next reply comes after anything sent to him.
    await bobSocket.request('ping');
    const leaked = bobSocket.frames.filter((f) => JSON.stringify(f).includes(secret.id) || JSON.stringify(f).includes('private words'));
    assert.deepEqual(leaked, []);
  });

  it('when a bot is in a channel, then its token socket receives posted for that channel, its own posts included', async () => {
    const bot = await teamBot(target.url, admin, team);
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bot.id, channel.id);
    const botSocket = await open({ token: bot.token });
    await botSocket.event('hello');
    const fromAlice = await postIn(alice, channel.id, 'hi bot');
    const seen = await botSocket.event('posted', (f) => parsed(f, 'post').id === fromAlice.id);
    assert.equal(seen.data?.sender_name, `@${alice.username}`);
    const own = await postIn(bot, channel.id, 'bot speaking');
    await botSocket.event('posted', (f) => parsed(f, 'post').id === own.id);
  });

  it('when the token of a socket is revoked, then the socket is closed', async () => {
    await patchConfig(admin.client, { ServiceSettings: { EnableUserAccessTokens: true } });
    const { id: tokenId, token } = await issueToken(admin.client, alice.id, 'ws revoke');
    const socket = await open({ token });
    await socket.event('hello');
    const revoked = await raw(target.url, 'POST', '/api/v4/users/tokens/revoke', { token: admin.token, body: { token_id: tokenId } });
    assert.equal(revoked.status, 200);
    const closed = await socket.closed;
    assert.ok(closed.code >= 1000);
    // Reconnecting with it opens an unauthenticated socket: no hello.
    const again = await open({ token });
    again.send('authentication_challenge', { token });
    await again.closed;
    assert.equal(again.frames.filter((f) => f.event === 'hello').length, 0);
  });

  it('when a user logs out, then the sockets of that session close', async () => {
    const carol = await teamMember(target.url, admin, team, 'carol');
    const socket = await open({ token: carol.token });
    await socket.event('hello');
    await carol.client.logout();
    await socket.closed;
  });

  it('when a client reconnects with its connection_id and next sequence_number, then the events it missed are replayed with their seq and no hello', async () => {
    const channel = await newChannel(alice, team);
    const first = await open({ token: alice.token });
    const hello = await first.event('hello');
    const connectionId = String(hello.data?.connection_id);
    const before = await postIn(alice, channel.id, 'before the drop');
    await first.event('posted', (f) => parsed(f, 'post').id === before.id);
    const next = Math.max(...first.events().map((f) => Number(f.seq))) + 1;
    first.close();
    await first.closed;
    const missed = [await postIn(alice, channel.id, 'missed one'), await postIn(alice, channel.id, 'missed two')];
    // The events are numbered for the away connection as they arrive; wait until both are in (another socket sees them).
    const watcher = await open({ token: alice.token });
    await watcher.event('hello');
    const third = await postIn(alice, channel.id, 'after');
    await watcher.event('posted', (f) => parsed(f, 'post').id === third.id);
    const again = await open({ token: alice.token, query: `connection_id=${connectionId}&sequence_number=${next}` });
    for (const post of [...missed, third]) await again.event('posted', (f) => parsed(f, 'post').id === post.id);
    assert.equal(again.frames.some((f) => f.event === 'hello'), false);
    const seqs = again.events().map((f) => Number(f.seq));
    assert.equal(seqs[0], next);
    assert.deepEqual(seqs, seqs.map((_, i) => next + i));
  });

  it('when a reconnect asks for a sequence the server no longer has, or names an unknown connection, then a fresh hello with a new connection id', async () => {
    const first = await open({ token: alice.token });
    const hello = await first.event('hello');
    first.close();
    await first.closed;
    const tooNew = await open({ token: alice.token, query: `connection_id=${String(hello.data?.connection_id)}&sequence_number=999999` });
    const fresh = await tooNew.event('hello');
    assert.equal(fresh.seq, 0);
    assert.notEqual(fresh.data?.connection_id, hello.data?.connection_id);
    const unknown = await open({ token: alice.token, query: `connection_id=${'z'.repeat(26)}&sequence_number=3` });
    const other = await unknown.event('hello');
    assert.notEqual(other.data?.connection_id, 'z'.repeat(26));
  });

  it('when the official client authenticates with the challenge and reconnects, then it gets a fresh hello and runs its missed-message resync (the reference: an unauthenticated upgrade starts a new connection)', async () => {
    const client = new OfficialSocket(target.url, alice.token, 'challenge');
    try {
      const first = await client.event('hello');
      (client.client as unknown as { conn: WebSocket | null }).conn?.terminate();
      const second = await client.event('hello', () => true, 30_000);
      assert.notEqual(second.data?.connection_id, first.data?.connection_id);
      assert.equal(client.missed, 1);
    } finally {
      client.close();
    }
  });

  it('when the reconnect parameters are malformed, then the socket is closed right after the upgrade', async () => {
    const short = await open({ token: alice.token, query: 'connection_id=abc&sequence_number=1' });
    await short.closed;
    const noSeq = await open({ token: alice.token, query: `connection_id=${'a'.repeat(26)}` });
    await noSeq.closed;
    assert.equal(short.frames.length + noSeq.frames.length, 0);
  });

  it('when the official client (cookie-authenticated, as in a browser) loses its socket, then it reconnects with its connection id and misses nothing', async () => {
    const channel = await newChannel(alice, team);
    const client = new OfficialSocket(target.url, alice.token, 'cookie');
    try {
      await client.event('hello');
      const one = await postIn(alice, channel.id, 'one');
      await client.event('posted', (f) => parsed(f, 'post').id === one.id);
      // Drop the TCP connection under the client (a network blip); it reconnects on its own.
      const conn = (client.client as unknown as { conn: WebSocket | null }).conn;
      conn?.terminate();
      const two = await postIn(alice, channel.id, 'two');
      await client.event('posted', (f) => parsed(f, 'post').id === two.id, 30_000);
      assert.equal(client.missed, 0, 'no missed-message resync: the server replayed');
      assert.ok(client.reconnects >= 1);
      assert.equal(client.events.filter((f) => f.event === 'hello').length, 1);
    } finally {
      client.close();
    }
  });
});
