import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { httpHarness, type Caller, type HttpHarness } from '../../test-support/http-harness';
import { AFFECTED_USERS_HEADER } from './affected-users';

describe('affected-users response header (for the gateway token cache)', () => {
  let h: HttpHarness;
  let admin: Caller;
  before(async () => {
    h = await httpHarness();
    admin = await h.admin();
  });
  after(async () => h.stop());

  it('when a request deactivates a user, then the answer names that user for the gateway', async () => {
    const u = await h.user();
    const res = await h.request('PUT', `/api/v4/users/${u.id}/active`, { as: admin, body: { active: false } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers[AFFECTED_USERS_HEADER], u.id);
  });

  it('when a request changes no session, then the answer names nobody', async () => {
    const u = await h.user();
    const res = await h.request('GET', `/api/v4/users/${u.id}`, { as: admin });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers[AFFECTED_USERS_HEADER], undefined);
  });
});
