import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bootstrapAdmin, call, cleanupRun, freePort, isolation, realServers, ROOT, ServiceProcess } from './support/processes';
import WebSocket from 'ws';
import { OfficialClient, postedMessage, ReconnectingSocket, websocketUrl, type Frame, type SocketLife } from './support/ws-clients';

const servers = realServers();
const missingDist = ['posts', 'realtime'].find((name) => !existsSync(join(ROOT, 'services', name, 'dist', 'main.js')));
const skip = servers.skip !== false ? servers.skip : missingDist ? `services/${missingDist}/dist/main.js missing: run npx tsc -b` : false;

const USERS = 4;
const WAIT_MS = 60_000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(what: string, done: () => boolean, timeoutMs = WAIT_MS): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** `switchyard_realtime_connections{state="connected"}` of one replica. */
async function connectedOn(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const match = /^switchyard_realtime_connections\{state="connected"\} (\d+)$/m.exec(text);
  return match?.[1] === undefined ? 0 : Number(match[1]);
}

/** Seq numbers of one socket's life are 0 (hello), 1, 2, ... without a gap (the JS client checks this). */
function assertContiguous(life: SocketLife, who: string): void {
  assert.equal(life.hello.seq, 0, `${who}: hello has seq 0`);
  life.events.forEach((frame, i) => assert.equal(frame.seq, i + 1, `${who}: event ${i} (${String(frame.event)}) has seq ${i + 1}`));
}

/**
 * Drill (issue 14, "kill a realtime replica"): two realtime replicas behind one gateway (SERVICE_URLS
 * realtime=A|B; the gateway spreads upgrades over both and skips one that is down), each reading the
 * event stream in its own consumer group. Raw `ws` clients and the unmodified official WebSocketClient,
 * for several users in one channel, are spread over both. A is SIGKILLed between posts. What the
 * reference promises (mattermost-wire-2.md §1.5): a reconnect whose connection_id another node does not
 * know gets a fresh hello with a new id and seq 0, no replay; the client sees the new id as "missed
 * messages" and resyncs over REST. So: A's clients reconnect to B and get that fresh hello (not a close,
 * not a replay of foreign seqs), the official client fires its missed-message listener, every event on
 * every socket is numbered without a gap, B's clients lose nothing and never reconnect, every post made
 * after a client's new hello reaches it, and what a client of A missed while it was away is exactly what
 * `GET /channels/{id}/posts?since=` returns to its resync.
 */
describe('drill: SIGKILL one of two realtime replicas while posts flow', { skip, timeout: 600_000 }, () => {
  const names = isolation();
  const processes: ServiceProcess[] = [];
  let gateway: ServiceProcess;
  let replicaA: ServiceProcess;
  let replicaB: ServiceProcess;
  const metrics = { a: '', b: '' };
  const raw: ReconnectingSocket[] = [];
  const official: OfficialClient[] = [];
  /** Raw clients that resume with their event cursor (issue 28) instead of connection_id + sequence_number. */
  const cursored: ReconnectingSocket[] = [];
  /** Replica A's port and environment: a fresh A is started on them later. */
  let restartA: (() => ServiceProcess) | undefined;

  before(async () => {
    if (skip !== false || servers.skip !== false) return;
    const env: Record<string, string> = {
      ...servers.env,
      KAFKA_NAMESPACE: names.KAFKA_NAMESPACE ?? '',
      REDIS_KEY_PREFIX: names.REDIS_KEY_PREFIX ?? '',
      KAFKA_TOPICS_FILE: join(ROOT, 'deploy/local/topics.txt'),
      INTERNAL_SECRET: randomBytes(24).toString('base64url'),
      LOG_LEVEL: 'warn',
    };
    const ports = { users: await freePort(), posts: await freePort(), a: await freePort(), b: await freePort(), gateway: await freePort(), ma: await freePort(), mb: await freePort() };
    const urls = `users-bots=http://127.0.0.1:${ports.users},posts=http://127.0.0.1:${ports.posts},realtime=http://127.0.0.1:${ports.a}|http://127.0.0.1:${ports.b}`;
    const usersBots = new ServiceProcess('users-bots', ports.users, { ...env, SERVICE_URLS: urls, MONGO_DB: `${names.MONGO_DB_PREFIX}users` });
    const posts = new ServiceProcess('posts', ports.posts, { ...env, SERVICE_URLS: urls, MONGO_DB: `${names.MONGO_DB_PREFIX}posts` });
    replicaA = new ServiceProcess('realtime', ports.a, { ...env, SERVICE_URLS: urls, METRICS_PORT: String(ports.ma) });
    replicaB = new ServiceProcess('realtime', ports.b, { ...env, SERVICE_URLS: urls, METRICS_PORT: String(ports.mb) });
    metrics.a = `http://127.0.0.1:${ports.ma}/metrics`;
    metrics.b = `http://127.0.0.1:${ports.mb}/metrics`;
    gateway = new ServiceProcess('gateway', ports.gateway, { ...env, SERVICE_URLS: urls, UPSTREAM_TIMEOUT_MS: '5000' });
    processes.push(usersBots, posts, replicaA, replicaB, gateway);
    restartA = () => {
      const fresh = new ServiceProcess('realtime', ports.a, { ...env, SERVICE_URLS: urls, METRICS_PORT: String(ports.ma) });
      processes.push(fresh);
      return fresh;
    };
    // users-bots and posts first (the others load the config and look sessions up there); a loaded box is slow.
    usersBots.start();
    posts.start();
    await usersBots.waitReady();
    await posts.waitReady();
    for (const p of [replicaA, replicaB, gateway]) p.start();
    for (const p of [replicaA, replicaB, gateway]) await p.waitReady();
  });

  /**
   * A bot offline since `before-3` (its cursor, from `client`'s first socket): a fresh A starts (it holds
   * nothing older than its start), B is killed, and the bot resumes on A over WebSocket and over HTTP: A reads
   * what it does not hold from Kafka (EventBus.readLog). Everything after `before-3` once, in order.
   */
  const resumeOnFreshReplica = async (base: string, token: string, client: ReconnectingSocket | undefined, expected: readonly string[]): Promise<void> => {
    const cursor = client?.lives[0]?.events.find((f) => postedMessage(f) === 'before-3')?.cursor;
    assert.equal(typeof cursor, 'string', 'the cursor of before-3');
    const fresh = (restartA as () => ServiceProcess)();
    fresh.start();
    await fresh.waitReady();
    await replicaB.kill();
    const query = `cursor=${encodeURIComponent(String(cursor))}`;
    let frames: Frame[] = [];
    const end = Date.now() + WAIT_MS;
    while (!expected.every((m) => frames.some((f) => postedMessage(f) === m))) {
      if (Date.now() > end) throw new Error(`timed out resuming on the fresh replica: ${JSON.stringify(frames.map((f) => postedMessage(f) ?? f.event))}`);
      // The gateway may still try B first: open again until a socket greets and replays.
      const got: Frame[] = [];
      frames = got;
      const ws = new WebSocket(websocketUrl(base, query), { headers: { authorization: `Bearer ${token}` } });
      ws.on('message', (data: WebSocket.RawData) => got.push(JSON.parse(String(data)) as Frame));
      ws.on('error', () => undefined);
      const closed = new Promise<void>((resolve) => ws.on('close', () => resolve()));
      await Promise.race([closed, until('the replay', () => expected.every((m) => got.some((f) => postedMessage(f) === m)), 10_000).catch(() => undefined)]);
      ws.terminate();
    }
    assert.equal(frames[0]?.data?.resume, 'complete');
    assert.deepEqual(frames.map(postedMessage).filter((m): m is string => m !== undefined && expected.includes(m)), [...expected], 'over WebSocket: once, in order');
    let at = String(cursor);
    const overHttp: string[] = [];
    for (let i = 0; i < 50 && !expected.every((m) => overHttp.includes(m)); i += 1) {
      const res = await call(base, 'GET', `/api/v4/events?${query.replace(/^cursor=.*/, `cursor=${encodeURIComponent(at)}`)}&wait=1&limit=1000`, { token });
      if (res.status !== 200) continue;
      for (const e of res.body.events as Frame[]) {
        const m = postedMessage(e);
        if (m !== undefined && expected.includes(m)) overHttp.push(m);
      }
      at = String(res.body.cursor);
    }
    assert.deepEqual(overHttp, [...expected], 'over HTTP: once, in order');
  };

  after(async () => {
    for (const c of [...raw, ...cursored]) c.stop();
    for (const c of official) c.close();
    for (const p of [...processes].reverse()) await p.stop();
    if (names.RUN_ID) await cleanupRun(names.RUN_ID);
  });

  it('when replica A is killed, then its clients reconnect to B with a fresh hello and resync, B\'s clients lose nothing, and every later post reaches everyone', async () => {
    const base = gateway.url;
    const admin = await bootstrapAdmin(base);
    const suffix = randomBytes(3).toString('hex');
    const team = await call(base, 'POST', '/api/v4/teams', { token: admin, body: { name: `rtdrill${suffix}`, display_name: 'RT drill', type: 'O' } });
    assert.equal(team.status, 201, JSON.stringify(team.body));
    const channel = await call(base, 'POST', '/api/v4/channels', { token: admin, body: { team_id: team.body.id, name: `rt-${suffix}`, display_name: 'RT', type: 'O' } });
    assert.equal(channel.status, 201, JSON.stringify(channel.body));
    const channelId = String(channel.body.id);
    const tokens: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const username = `rt${suffix}u${i}`;
      const password = 'Rt-drill-pass1';
      const user = await call(base, 'POST', '/api/v4/users', { token: admin, body: { username, email: `${username}@example.com`, password } });
      assert.equal(user.status, 201, JSON.stringify(user.body));
      assert.equal((await call(base, 'POST', `/api/v4/teams/${String(team.body.id)}/members`, { token: admin, body: { team_id: team.body.id, user_id: user.body.id } })).status, 201);
      assert.equal((await call(base, 'POST', `/api/v4/channels/${channelId}/members`, { token: admin, body: { user_id: user.body.id } })).status, 201);
      const login = await call(base, 'POST', '/api/v4/users/login', { body: { login_id: username, password } });
      tokens.push(login.headers.get('token') ?? '');
    }
    for (const token of tokens) {
      raw.push(new ReconnectingSocket(base, token));
      official.push(new OfficialClient(base, token));
    }
    await until('every client greeted', () => raw.every((c) => c.lives.length === 1) && official.every((c) => c.hellos().length === 1));
    // Two cursor clients per user, one after the other: upgrades go to the replicas in turn, so some are on each.
    for (const token of tokens) {
      for (const _ of [1, 2]) {
        const client = new ReconnectingSocket(base, token, 200, 'cursor');
        cursored.push(client);
        await until('a cursor client greeted', () => client.lives.length === 1);
      }
    }
    const onA = await connectedOn(metrics.a);
    const onB = await connectedOn(metrics.b);
    assert.equal(onA + onB, USERS * 4, 'every socket is on one of the replicas');
    assert.ok(onA > 0 && onB > 0, `upgrades spread over both replicas (A ${onA}, B ${onB})`);

    const post = async (message: string): Promise<{ id: string; at: number }> => {
      const res = await call(base, 'POST', '/api/v4/posts', { token: admin, body: { channel_id: channelId, message } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return { id: String(res.body.id), at: Number(res.body.create_at) };
    };
    const everyoneHas = (messages: readonly string[]) => (): boolean =>
      [...raw, ...cursored].every((c) => messages.every((m) => c.messages().includes(m))) && official.every((c) => messages.every((m) => c.messages().includes(m)));

    const before = ['before-1', 'before-2', 'before-3'];
    for (const m of before) await post(m);
    await until('the first posts on every socket', everyoneHas(before));
    const lastSeenAt = Date.now();

    await replicaA.kill();
    // Posted while A's clients are away: the reference does not replay them across nodes.
    const gap = ['gap-1', 'gap-2'];
    const gapPosts = [];
    for (const m of gap) gapPosts.push(await post(m));

    // The sockets of A are the ones that close; each greets again (on B).
    const closedCount = (): number => [...raw, ...cursored].filter((c) => c.lives[0]?.closeCode !== undefined).length + official.filter((c) => c.closes > 0).length;
    await until('the sockets of A closed', () => closedCount() >= onA);
    const rawOfA = raw.filter((c) => c.lives[0]?.closeCode !== undefined);
    const officialOfA = official.filter((c) => c.closes > 0);
    const cursoredOfA = cursored.filter((c) => c.lives[0]?.closeCode !== undefined);
    assert.equal(rawOfA.length + officialOfA.length + cursoredOfA.length, onA, 'exactly the sockets of A closed');
    await until('the clients of A greeted again', () => [...rawOfA, ...cursoredOfA].every((c) => c.lives.length === 2) && officialOfA.every((c) => c.hellos().length === 2));
    assert.equal(await connectedOn(metrics.b), USERS * 4, 'B holds every socket now');

    const afterKill = ['after-1', 'after-2', 'after-3'];
    for (const m of afterKill) await post(m);
    await until('the later posts on every socket', everyoneHas(afterKill));

    for (const [i, client] of raw.entries()) {
      const [first, second] = client.lives;
      assert.ok(first);
      assertContiguous(first, `raw ${i} first socket`);
      if (!rawOfA.includes(client)) {
        assert.equal(client.lives.length, 1, `raw ${i} (on B) never reconnected`);
        assert.deepEqual(client.messages().filter((m) => /^(before|gap)-\d$/.test(m)), [...before, ...gap], `raw ${i} (on B) got every post in order, the gap included`);
        continue;
      }
      // The reconnect named A's connection id and the next seq; B does not know it: a fresh hello.
      assert.ok(second, `raw ${i} reconnected`);
      assertContiguous(second, `raw ${i} second socket`);
      assert.notEqual(second.hello.data?.connection_id, first.hello.data?.connection_id, `raw ${i}: a new connection id`);
      assert.deepEqual(first.events.map((f) => postedMessage(f) ?? '').filter((m) => /^(before|gap)-\d$/.test(m)), before, `raw ${i}: A delivered the first posts`);
    }
    for (const [i, client] of official.entries()) {
      if (!officialOfA.includes(client)) {
        assert.equal(client.reconnects, 0, `official ${i} (on B) never reconnected (a seq gap would have made it)`);
        assert.equal(client.missed, 0, `official ${i} (on B) saw no missed messages`);
        continue;
      }
      const [first, second] = client.hellos();
      assert.notEqual(second?.data?.connection_id, first?.data?.connection_id, `official ${i}: a new connection id`);
      assert.equal(client.missed, 1, `official ${i}: its missed-message listener ran once (the resync trigger)`);
    }

    // Cursor clients: those of A resumed on B with their cursor (hello `complete`): every post once, in order.
    const all = [...before, ...gap, ...afterKill];
    for (const [i, client] of cursored.entries()) {
      assert.deepEqual(client.messages().filter((m) => all.includes(m)), all, `cursor client ${i}: every post once, in order`);
      if (cursoredOfA.includes(client)) assert.equal(client.lives[1]?.hello.data?.resume, 'complete', `cursor client ${i} resumed`);
    }
    assert.ok(cursoredOfA.length > 0, 'some cursor clients were on A');
    await resumeOnFreshReplica(base, tokens[0] ?? '', raw[0], [...gap, ...afterKill]);

    // The resync of a client of A: everything since the last post it saw, from REST.
    const since = await call(base, 'GET', `/api/v4/channels/${channelId}/posts?since=${lastSeenAt - 1}`, { token: tokens[0] });
    assert.equal(since.status, 200);
    const resynced = Object.values(since.body.posts as Record<string, { id: string; message: string }>).map((p) => p.message);
    for (const m of gap) assert.ok(resynced.includes(m), `the resync returns ${m}`);
    const missedByA = rawOfA.map((c) => gap.filter((m) => !c.messages().includes(m)));
    process.stdout.write(
      `DRILL realtime-kill: ${JSON.stringify({ sockets: USERS * 4, on_a: onA, on_b: onB, raw_reconnected: rawOfA.length, official_reconnected: officialOfA.length, cursor_resumed: cursoredOfA.length, gap_posts: gapPosts.length, gap_posts_missed_over_ws_by_a_clients: missedByA, recovered_by_resync: true })}\n`,
    );
  });
});
