import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, Joi, loadConfig } from './index';

const schema = Joi.object<{ PORT: number; NAME: string }>({
  PORT: Joi.number().port().required().description('port'),
  NAME: Joi.string().required().description('name'),
});

test('when several keys are wrong, then every problem is listed at once', () => {
  assert.throws(
    () => loadConfig(schema, { PORT: 'nope' }),
    (err: unknown) => err instanceof ConfigError && err.problems.length === 2,
  );
});

test('when the env is valid, then values are converted and frozen', () => {
  const config = loadConfig(schema, { PORT: '8065', NAME: 'x', OTHER: 'ignored' });
  assert.equal(config.PORT, 8065);
  assert.ok(Object.isFrozen(config));
});
