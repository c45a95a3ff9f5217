import { test } from 'node:test';
import assert from 'node:assert/strict';
import { acceptedKeys, internalKeys, keySet, matchesAnyKey, signingKey } from './key-set';
import { verifyIdentity, signIdentity } from './identity';
import { serviceCredential, verifyServiceCredential } from './service-credential';

const A = 'secret-A-of-a-reasonable-length-0000';
const B = 'secret-B-of-a-reasonable-length-1111';
const C = 'secret-C-of-a-reasonable-length-2222';

test('when a key set is made, then it signs with the primary and accepts primary then secondary; an empty or repeated secondary is dropped', () => {
  assert.deepEqual(keySet(A, B), { primary: A, secondary: B });
  assert.equal(signingKey(keySet(A, B)), A);
  assert.equal(signingKey(A), A);
  assert.deepEqual(acceptedKeys(keySet(A, B)), [A, B]);
  assert.deepEqual(acceptedKeys(A), [A]);
  assert.deepEqual(keySet(A, ''), { primary: A });
  assert.deepEqual(keySet(A, A), { primary: A });
  assert.deepEqual(internalKeys({ INTERNAL_SECRET: A }), { primary: A });
  assert.deepEqual(internalKeys({ INTERNAL_SECRET: A, INTERNAL_SECRET_SECONDARY: B }), { primary: A, secondary: B });
  assert.throws(() => keySet(''));
});

test('when a value is matched against a key set, then it matches for either key and not for another', () => {
  const expected = (key: string) => `mac(${key})`;
  assert.equal(matchesAnyKey(keySet(A, B), `mac(${A})`, expected), true);
  assert.equal(matchesAnyKey(keySet(A, B), `mac(${B})`, expected), true);
  assert.equal(matchesAnyKey(keySet(A, B), `mac(${C})`, expected), false);
  assert.equal(matchesAnyKey(keySet(A), `mac(${B})`, expected), false);
  assert.equal(matchesAnyKey(keySet(A, B), '', expected), false);
});

test('when identities and service credentials are verified with a key set, then ones signed with either key pass and others do not', () => {
  const now = 1_700_000_000_000;
  const user = { userId: 'u'.repeat(26), sessionId: 's', roles: 'system_user', isBot: false, sessionType: 'session' } as const;
  const request = (keys: string) => ({ method: 'GET', target: '/internal/v1/x', headers: serviceCredential('posts', keys).headers('GET', '/internal/v1/x', now) });
  const ME = { method: 'GET', target: '/api/v4/users/me' };
  const asUser = (headers: Record<string, string>) => ({ ...ME, headers });
  for (const signer of [A, B]) {
    assert.equal(verifyIdentity(asUser(signIdentity(user, signer, ME, now)), keySet(A, B), now)?.userId, user.userId);
    assert.equal(verifyServiceCredential(request(signer), keySet(B, A), now), 'posts');
  }
  assert.equal(verifyIdentity(asUser(signIdentity(user, C, ME, now)), keySet(A, B), now), undefined);
  assert.equal(verifyServiceCredential(request(C), keySet(A, B), now), undefined);
  assert.equal(verifyIdentity(asUser(signIdentity(user, keySet(B, A), ME, now)), keySet(A), now), undefined, 'a set signs with its primary only');
});
