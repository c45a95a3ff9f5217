import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createUser, type AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, raw, type RawResponse } from './support/http';
import type { Target } from './support/target';

const WRONG = 'api.user.login.invalid_credentials_email_username';
const LOCKED = 'api.user.check_user_login_attempts.too_many.app_error';

/** Password guessing against one account, as an attacker would: in sequence and all at once. */
describe('login lockout (black box)', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
  });
  after(() => target?.stop());

  const login = (loginId: string, password: string): Promise<RawResponse> => raw(target.url, 'POST', '/api/v4/users/login', { body: { login_id: loginId, password } });

  it('when 30 wrong passwords arrive in parallel, then only 10 are judged wrong, the rest and then the right password get 401 too_many', async () => {
    const victim = await createUser(admin.client, 'lock');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => login(victim.username, `guess-${i}-wrong`)));
    for (const res of answers) assert.equal(res.status, 401, res.text);
    const ids = answers.map((res) => (res.json as { id: string }).id);
    assert.equal(ids.filter((id) => id === WRONG).length, 10, ids.join(' '));
    assert.equal(ids.filter((id) => id === LOCKED).length, 20, ids.join(' '));
    assertAppError(await login(victim.username, victim.password), 401, LOCKED);
    assertAppError(await raw(target.url, 'POST', '/api/v4/users/login', { body: { id: victim.user.id, password: victim.password } }), 401, LOCKED);
  });

  it('when nine wrong passwords come before the right one, then it logs in and the count restarts, so nine more do not lock', async () => {
    const user = await createUser(admin.client, 'nine');
    for (let round = 0; round < 2; round += 1) {
      for (let i = 0; i < 9; i += 1) assertAppError(await login(user.username, 'wrong-password'), 401, WRONG);
      const ok = await login(user.username, user.password);
      assert.equal(ok.status, 200, ok.text);
      assert.match(ok.headers.get('token') ?? '', /^[a-z0-9]{26}$/);
    }
  });

  it('when the tenth wrong password arrives, then it is still a plain 401 and the next attempt, right or wrong, is locked', async () => {
    const user = await createUser(admin.client, 'ten');
    for (let i = 0; i < 10; i += 1) assertAppError(await login(user.username, 'wrong-password'), 401, WRONG);
    assertAppError(await login(user.username, user.password), 401, LOCKED);
    assertAppError(await login(user.email, 'wrong-password'), 401, LOCKED);
  });

  it('when the login is unknown, then the answer is the same masked 401 as a wrong password', async () => {
    assertAppError(await login(`nobody-${Date.now()}`, 'whatever-pass1'), 401, WRONG);
  });
});
