import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadRuntimeConfig, productionSecretProblems } from './index';

const strong = 'Vb3q0S1uYbQpR4m0pQ2J7f8sX9kLw2eRtYuIoPaSdFg';

test('when NODE_ENV is not production, then placeholders are accepted (local overlays and tests)', () => {
  assert.deepEqual(productionSecretProblems({ INTERNAL_SECRET: 'CHANGE_ME', NODE_ENV: 'development' }), []);
});

test('when production runs with a placeholder, a short or a missing internal secret, then it refuses and names the key but never the value', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ INTERNAL_SECRET: 'CHANGE_ME-generate-with-openssl-rand-base64-32' }, /INTERNAL_SECRET: is a placeholder/],
    [{ INTERNAL_SECRET: 'local-dev-only-internal-secret-not-for-production' }, /INTERNAL_SECRET: is a placeholder/],
    [{ INTERNAL_SECRET: 'x'.repeat(40) }, /INTERNAL_SECRET: is a placeholder/],
    [{ INTERNAL_SECRET: 'short-but-random-9f8e7d' }, /INTERNAL_SECRET: must be at least 32 characters/],
    [{}, /INTERNAL_SECRET: required in production/],
    [{ INTERNAL_SECRET: strong, INTERNAL_SECRET_SECONDARY: 'abc' }, /INTERNAL_SECRET_SECONDARY: must be at least 32/],
    [{ INTERNAL_SECRET: strong, MONGO_URL: 'mongodb://u:CHANGE_ME@mongo:27017/db' }, /MONGO_URL: its password is a placeholder/],
    [{ INTERNAL_SECRET: strong, REDIS_URL: 'redis://:CHANGE_ME@redis:6379' }, /REDIS_URL: its password is a placeholder/],
    [{ INTERNAL_SECRET: strong, KAFKA_SASL_PASSWORD: 'change-me' }, /KAFKA_SASL_PASSWORD: is a placeholder/],
  ];
  for (const [env, expected] of cases) {
    const problems = productionSecretProblems({ NODE_ENV: 'production', ...env });
    assert.match(problems.join('\n'), expected, JSON.stringify(env));
    for (const value of Object.values(env)) if (value.length > 8) assert.ok(!problems.join('\n').includes(value), 'never the value');
  }
});

test('when production has real secrets, then the runtime config loads', () => {
  const env = { NODE_ENV: 'production', INTERNAL_SECRET: strong, MONGO_URL: 'mongodb://u:s3cr3t-Pw@mongo:27017/db', REDIS_URL: 'rediss://:an0ther-Pw@redis:6379' };
  assert.deepEqual(productionSecretProblems(env), []);
  assert.deepEqual(loadRuntimeConfig(env, 'svc', 0).problems, []);
  assert.match(loadRuntimeConfig({ ...env, INTERNAL_SECRET: 'CHANGE_ME' }, 'svc', 0).problems.join(), /INTERNAL_SECRET: is a placeholder/);
});
