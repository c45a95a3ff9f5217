import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import type { ResolvedSession } from '@switchyard/contracts';
import { keySet, verifyIdentity } from '@switchyard/http-kit';
import { createSilentLogger } from '@switchyard/logger';
import { MutableConfigView, defaultSystemConfig } from '@switchyard/system-config';
import { MemoryTokenCache } from '../../adapters/memory/token-cache.memory';
import { SessionResolver } from '../../domain/session-resolver';
import { websocketUpgrade } from './websocket-upgrade';

const ENDS = 1_900_000_000_000;
const session: ResolvedSession = { userId: 'u'.repeat(26), sessionId: 's1', roles: 'system_user', isBot: false, sessionType: 'session', csrfToken: 'c', expiresAt: ENDS };

test('when an authenticated upgrade is handed to realtime, then when the session ends is inside the signed identity, and a client-sent x-switchyard-session-expires is not what carries it', async () => {
  const keys = keySet('gateway-primary-0123456789abcdef', 'gateway-secondary-0123456789abcdef');
  const resolver = new SessionResolver({
    cache: new MemoryTokenCache({ maxEntries: 10, now: Date.now }),
    source: { resolve: async (token) => (token === 'good' ? session : undefined) },
    logger: createSilentLogger(),
    ttlMs: 1_000,
  });
  let handOver: (headers: Readonly<Record<string, string | string[]>>) => void = () => undefined;
  const handed = new Promise<Readonly<Record<string, string | string[]>>>((resolve) => (handOver = resolve));
  const handler = websocketUpgrade({
    resolver,
    config: new MutableConfigView(defaultSystemConfig()),
    logger: createSilentLogger(),
    transport: { upgrade: (_service, _req, _socket, _head, headers) => handOver(headers) },
    secret: keys,
    versionId: () => 'v',
    trustProxy: false,
  });
  const req = {
    method: 'GET',
    url: '/api/v4/websocket',
    headers: { upgrade: 'websocket', connection: 'Upgrade', host: 'chat.example', authorization: 'Bearer good', 'x-switchyard-session-expires': '0' },
  } as unknown as IncomingMessage;
  handler(req, new PassThrough(), Buffer.alloc(0));
  const headers = await handed;
  const identity = verifyIdentity({ method: 'GET', target: '/api/v4/websocket', headers: headers as IncomingMessage['headers'] }, keys);
  assert.equal(identity?.userId, session.userId);
  assert.equal(identity?.sessionExpiresAt, ENDS, 'signed with the identity');
  assert.notEqual(headers['x-switchyard-session-expires'], String(ENDS), 'the gateway no longer sends it as a separate header');
});
