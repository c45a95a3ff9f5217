import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { it } from 'node:test';
import { WebSocket } from 'ws';
import { IDENTITY_MAX_AGE_MS, keySet, signIdentity, type Keys } from '@switchyard/http-kit';
import { createSilentLogger } from '@switchyard/logger';
import { world } from '../../test-support/fakes';
import { WebSocketEndpoint } from './websocket.endpoint';

const SECRET = 'realtime-identity-secret-0123456789';
const USER = { userId: 'u'.repeat(26), sessionId: 's1', roles: 'system_user', isBot: false, sessionType: 'session' } as const;

/** What the socket gets first: the hello event (authenticated), or the close code (unauthenticated). */
function firstOutcome(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as { event?: string; broadcast?: { user_id?: string } };
      resolve(`${frame.event ?? 'frame'} ${frame.broadcast?.user_id ?? ''}`.trim());
      ws.close();
    });
    ws.once('close', (code) => resolve(`closed ${code}`));
    ws.once('error', reject);
  });
}

/** A realtime endpoint on a loopback server, verifying with `secret`. */
async function endpointOn(secret: Keys) {
  const w = world();
  const endpoint = new WebSocketEndpoint({
    hub: w.hub,
    actions: { hub: w.hub, sessions: w.directory, membership: w.membership, typing: { typing: async () => undefined }, presence: w.presence, clock: w.clock, currentVersion: '10.0.0', onAuthenticated: () => undefined },
    secret,
    clock: { now: () => Date.now() },
    logger: createSilentLogger(),
    defaultServerVersion: '10.0.0.test.0.false',
    // An unauthenticated socket is closed at once after the grace: its close is what the tests wait for.
    timers: { pingIntervalMs: 60_000, readDeadlineMs: 100_000, authTimeoutMs: 50, sweepIntervalMs: 60_000, maxFrameBytes: 8_192 },
  });
  const server = createServer();
  server.on('upgrade', endpoint.upgrade);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    hub: w.hub,
    base: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      await endpoint.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

it('when the upgrade carries an identity signed for another target or method, or an expired one, then the socket is not authenticated', async () => {
  const { base, stop } = await endpointOn(SECRET);
  try {
    const path = '/api/v4/websocket';
    const signed = (target: string, method = 'GET', at = Date.now()) => signIdentity(USER, SECRET, { method, target }, at);
    assert.equal(await firstOutcome(`${base}${path}`, signed(path)), `hello ${USER.userId}`);
    // Replayed: signed for another request of the same user.
    assert.equal(await firstOutcome(`${base}${path}`, signed('/api/v4/users/me')), 'closed 1008');
    assert.equal(await firstOutcome(`${base}${path}`, signed(`${path}?connection_id=`)), 'closed 1008');
    assert.equal(await firstOutcome(`${base}${path}`, signed(path, 'POST')), 'closed 1008');
    // Expired.
    assert.equal(await firstOutcome(`${base}${path}`, signed(path, 'GET', Date.now() - IDENTITY_MAX_AGE_MS - 1_000)), 'closed 1008');
  } finally {
    await stop();
  }
});

/** The hello's connection id, or the close code. */
function helloConnection(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as { data?: { connection_id?: string } };
      resolve(frame.data?.connection_id ?? '');
    });
    ws.once('close', (code) => resolve(`closed ${code}`));
    ws.once('error', reject);
  });
}

it('when the session end travels in the signed identity, then a forged x-switchyard-session-expires header changes nothing, a tampered payload is refused, and an identity signed with the secondary key still works', async () => {
  const keys = keySet('realtime-new-primary-0123456789abcdef', SECRET);
  const { hub, base, stop } = await endpointOn(keys);
  const url = `${base}/api/v4/websocket`;
  const ends = Date.now() + 60_000;
  try {
    for (const key of [keys.primary, SECRET]) {
      const signed = signIdentity({ ...USER, sessionExpiresAt: ends }, key, { method: 'GET', target: '/api/v4/websocket' });
      // A caller (or any hop) adds the old unsigned header to make the session last for ever.
      const connectionId = await helloConnection(url, { ...signed, 'x-switchyard-session-expires': '0' });
      assert.equal(hub.get(connectionId)?.session?.expiresAt, ends, `signed with ${key === keys.primary ? 'primary' : 'secondary'}: the signed end, not the header`);

      const payload = JSON.parse(Buffer.from(signed['x-switchyard-identity'] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
      const extended = Buffer.from(JSON.stringify({ ...payload, sessionExpiresAt: 0 })).toString('base64url');
      assert.equal(await helloConnection(url, { ...signed, 'x-switchyard-identity': extended }), 'closed 1008', 'a payload with the end removed no longer verifies');
    }
  } finally {
    await stop();
  }
});
