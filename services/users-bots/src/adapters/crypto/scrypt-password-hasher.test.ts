import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScryptPasswordHasher } from './scrypt-password-hasher';

test('when a password is hashed, then it verifies, a wrong one does not, and salts differ', async () => {
  const hasher = new ScryptPasswordHasher({ cost: 1024 });
  const a = await hasher.hash('correct horse');
  const b = await hasher.hash('correct horse');
  assert.notEqual(a, b);
  assert.match(a, /^scrypt\$1024\$8\$1\$/);
  assert.equal(await hasher.verify('correct horse', a), true);
  assert.equal(await hasher.verify('correct horsf', a), false);
});

test('when the stored hash is empty, malformed or absurdly costly, then verify is false without throwing', async () => {
  const hasher = new ScryptPasswordHasher({ cost: 1024 });
  for (const stored of ['', 'plain', 'scrypt$x$8$1$AAAA$AAAA', 'bcrypt$1$1$1$a$b', `scrypt$${2 ** 24}$8$1$AAAA$AAAA`, 'scrypt$1024$8$1$AAAA$']) {
    assert.equal(await hasher.verify('anything', stored), false, stored);
  }
});

test('when the default cost is used, then hashes made with another cost still verify', async () => {
  const cheap = await new ScryptPasswordHasher({ cost: 1024 }).hash('pw');
  assert.equal(await new ScryptPasswordHasher().verify('pw', cheap), true);
});
