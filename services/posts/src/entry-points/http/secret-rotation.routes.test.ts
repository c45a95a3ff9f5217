import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inject } from 'light-my-request';
import { newId } from '@switchyard/ids';
import { serviceCredential, signIdentity } from '@switchyard/http-kit';
import { postsHarness } from '../../test-support/http-harness';

const OLD = 'the-previous-internal-secret-0000000';
const OTHER = 'some-unrelated-internal-secret-11111';

test('when posts runs with INTERNAL_SECRET_SECONDARY, then user identities and service credentials signed with it are accepted, and other keys are not', async () => {
  const h = await postsHarness({ secondarySecret: OLD });
  try {
    const team = h.team();
    const user = h.user({ teamId: team });
    const channel = await h.channel(user, team);
    const internalPath = `/internal/v1/channels/${channel.id}`;
    const asUser = (key: string) => signIdentity({ userId: user.id, sessionId: 's', roles: user.roles, isBot: false, sessionType: 'session' }, key, { method: 'GET', target: `/api/v4/channels/${channel.id}` });
    const asService = (key: string, path = internalPath) => serviceCredential('outgoing-dispatch', key).headers('GET', path);
    const get = async (url: string, headers: Record<string, string>) => (await inject(h.app.handler, { method: 'GET', url, headers })).statusCode;

    assert.equal(await get(internalPath, asService(OLD)), 200);
    assert.equal(await get(`/api/v4/channels/${channel.id}`, asUser(OLD)), 200);
    assert.equal(await get(internalPath, asService(OTHER)), 401);
    assert.equal(await get(`/api/v4/channels/${channel.id}`, asUser(OTHER)), 401);
    const unknown = `/internal/v1/channels/${newId()}`;
    assert.equal(await get(unknown, asService(OLD, unknown)), 404, 'past the guard, the route itself answers');
  } finally {
    await h.stop();
  }
});
