import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError } from '@switchyard/errors';
import { newId } from '@switchyard/ids';
import { fastHasher, domainHarness } from '../../test-support/domain-harness';
import { newUser } from '../entities';
import type { Deps, PasswordHasher } from '../ports';
import { login } from './login.usecase';

/** Counts the password checks (what an unknown login must cost as much as a wrong password). */
class CountingHasher implements PasswordHasher {
  public verifies = 0;
  public hash(password: string): Promise<string> {
    return fastHasher.hash(password);
  }
  public verify(password: string, stored: string): Promise<boolean> {
    this.verifies += 1;
    return fastHasher.verify(password, stored);
  }
}

async function errorIdOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return isAppError(error) ? error.id : String(error);
  }
  return 'no error';
}

describe('login: lockout and enumeration', () => {
  async function setup(): Promise<{ deps: Deps; hasher: CountingHasher; userId: string }> {
    const h = domainHarness();
    const hasher = new CountingHasher();
    const deps: Deps = { ...h.deps, passwords: hasher };
    const userId = newId();
    await deps.users.insert(newUser({ id: userId, username: 'alice', email: 'alice@example.com', createAt: 1, passwordHash: await fastHasher.hash('password-1') }));
    return { deps, hasher, userId };
  }

  it('when the login is unknown or the user has no password, then a password is still verified once (no enumeration by timing) and the answer is the masked 401', async () => {
    const { deps, hasher } = await setup();
    assert.equal(await errorIdOf(login(deps, { loginId: 'nobody', password: 'password-1' })), 'api.user.login.invalid_credentials_email_username');
    assert.equal(hasher.verifies, 1);
    await deps.users.insert(newUser({ id: newId(), username: 'sso', email: 'sso@example.com', createAt: 1, passwordHash: '' }));
    assert.equal(await errorIdOf(login(deps, { loginId: 'sso', password: 'password-1' })), 'api.user.login.invalid_credentials_email_username');
    assert.equal(hasher.verifies, 2);
    assert.equal(await errorIdOf(login(deps, { loginId: 'alice', password: 'wrong-wrong' })), 'api.user.login.invalid_credentials_email_username');
    assert.equal(hasher.verifies, 3);
  });

  it('when the login is unknown, then its verify runs with the same scrypt parameters and key length as a wrong password for a real user', async () => {
    // Not timed: the cost of a verify is fixed by the stored hash it runs against (N, r, p, key length).
    const stored: string[] = [];
    const spy: PasswordHasher = {
      hash: (password) => fastHasher.hash(password),
      verify: (password, hash) => {
        stored.push(hash);
        return fastHasher.verify(password, hash);
      },
    };
    const h = domainHarness();
    const deps: Deps = { ...h.deps, passwords: spy };
    // A user whose hash the product made itself, as signup does.
    await deps.users.insert(newUser({ id: newId(), username: 'bob', email: 'bob@example.com', createAt: 1, passwordHash: await spy.hash('password-1') }));
    await errorIdOf(login(deps, { loginId: 'bob', password: 'wrong-wrong' }));
    await errorIdOf(login(deps, { loginId: 'nobody', password: 'wrong-wrong' }));
    await errorIdOf(login(deps, { loginId: 'nobody@example.com', password: 'wrong-wrong' }));
    assert.equal(stored.length, 3);
    const cost = (hash: string): string => {
      const [scheme, n, r, p, salt, key] = hash.split('$');
      assert.equal(scheme, 'scrypt');
      return `${n}$${r}$${p}$${Buffer.from(salt ?? '', 'base64').length}$${Buffer.from(key ?? '', 'base64').length}`;
    };
    const [real, ...unknown] = stored.map(cost);
    assert.equal(real, '1024$8$1$16$32');
    for (const each of unknown) assert.equal(each, real);
  });

  it('when 30 wrong passwords race, then only MaximumLoginAttempts of them reach the hash and the count stops there', async () => {
    const { deps, hasher, userId } = await setup();
    const ids = await Promise.all(Array.from({ length: 30 }, () => errorIdOf(login(deps, { loginId: 'alice', password: 'wrong-wrong' }))));
    assert.equal(hasher.verifies, 10);
    assert.equal(ids.filter((id) => id === 'api.user.check_user_login_attempts.too_many.app_error').length, 20);
    assert.equal((await deps.users.findById(userId))?.failedAttempts, 10);
  });

  it('when a deactivated user gives the right password, then 401 inactive and the attempt is given back', async () => {
    const { deps, userId } = await setup();
    await deps.users.update(userId, { deleteAt: 5, failedAttempts: 4 });
    assert.equal(await errorIdOf(login(deps, { loginId: 'alice', password: 'password-1' })), 'api.user.login.inactive.app_error');
    assert.equal((await deps.users.findById(userId))?.failedAttempts, 0);
  });
});
