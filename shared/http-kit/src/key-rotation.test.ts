import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSilentLogger } from '@switchyard/logger';
import { createHttpApp, InProcessTransport, identityMiddleware, requireIdentity, sendJson, serviceCredential, serviceOnly, signIdentity } from './index';
import { keySet, type KeySet } from './key-set';

const A = 'secret-A-of-a-reasonable-length-0000';
const B = 'secret-B-of-a-reasonable-length-1111';
const USER = { userId: 'u'.repeat(26), sessionId: 's', roles: 'system_user', isBot: false, sessionType: 'session' } as const;
const ME = { method: 'GET', target: '/api/v4/users/me' } as const;

/** One pod: an internal route (service credential) and a user route (gateway-signed identity), both verified with `keys`. */
function pod(keys: KeySet) {
  const http = createHttpApp({ service: 'api', logger: createSilentLogger(), ready: async () => ({ ok: true, checks: {} }) });
  http.app.use(identityMiddleware(() => keys));
  http.app.get('/internal/v1/ping', serviceOnly(() => keys, ['api']), (_req, res) => sendJson(res, 200, { ok: true }));
  http.app.get('/api/v4/users/me', (req, res) => sendJson(res, 200, { id: requireIdentity(req).userId }));
  return http.finalize();
}

/** Every pod calls every pod (itself too) on both routes, signing with its own primary; returns the failed calls. */
async function callEveryPair(fleet: readonly KeySet[]): Promise<string[]> {
  const transport = new InProcessTransport(Object.fromEntries(fleet.map((keys, i) => [`pod${i}`, pod(keys)])));
  const failed: string[] = [];
  for (const [i, caller] of fleet.entries()) {
    for (const j of fleet.keys()) {
      const internal = await transport.send(`pod${j}`, { method: 'GET', path: '/internal/v1/ping', headers: serviceCredential('api', caller).headers('GET', '/internal/v1/ping') });
      const user = await transport.send(`pod${j}`, { method: 'GET', path: '/api/v4/users/me', headers: signIdentity(USER, caller, ME) });
      if (internal.status !== 200) failed.push(`internal pod${i}→pod${j}: ${internal.status}`);
      if (user.status !== 200) failed.push(`user pod${i}→pod${j}: ${user.status}`);
    }
  }
  return failed;
}

/** Replaces the pods one at a time through `stages`, checking every pair after each replacement. */
async function rollThrough(stages: readonly KeySet[], pods: number): Promise<{ calls: number; failed: string[] }> {
  const fleet: KeySet[] = Array.from({ length: pods }, () => stages[0] as KeySet);
  const failed: string[] = [];
  let calls = 0;
  for (const stage of stages.slice(1)) {
    for (let i = 0; i < pods; i += 1) {
      fleet[i] = stage;
      failed.push(...(await callEveryPair(fleet)));
      calls += pods * pods * 2;
    }
  }
  return { calls, failed };
}

test('when INTERNAL_SECRET is rotated A → B in three rolling steps ({A,+B}, {B,+A}, {B}), then no request fails at any mix of old and new pods', async () => {
  const { calls, failed } = await rollThrough([keySet(A), keySet(A, B), keySet(B, A), keySet(B)], 3);
  assert.equal(calls, 3 * 3 * 3 * 3 * 2);
  assert.deepEqual(failed, []);
});

test('when a step is skipped (pods signing with B beside pods that accept only A), then requests fail: the middle step is needed', async () => {
  const { failed } = await rollThrough([keySet(A), keySet(B, A), keySet(B)], 2);
  assert.ok(failed.length > 0);
  assert.ok(failed.some((f) => f.startsWith('internal') && f.endsWith('401')));
  assert.ok(failed.some((f) => f.startsWith('user') && f.endsWith('401')));
});

test('when the rotation is over, then a credential signed with the retired key is refused', async () => {
  const transport = new InProcessTransport({ new: pod(keySet(B)) });
  const internal = await transport.send('new', { method: 'GET', path: '/internal/v1/ping', headers: serviceCredential('api', A).headers('GET', '/internal/v1/ping') });
  const user = await transport.send('new', { method: 'GET', path: '/api/v4/users/me', headers: signIdentity(USER, A, ME) });
  for (const refused of [internal, user]) {
    assert.equal(refused.status, 401);
    assert.equal((JSON.parse(refused.body.toString('utf8')) as { id: string }).id, 'api.context.session_expired.app_error');
  }
});
