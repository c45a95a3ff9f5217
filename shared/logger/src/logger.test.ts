import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger, runWithRequestContext } from './index';

test('when a line carries tokens or passwords, then they are redacted at any depth', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ service: 'svc', sink: (line) => lines.push(line) });
  logger.info('login', { password: 'hunter2', nested: { Authorization: 'Bearer abc', ok: 1 }, token: 'x' });
  const text = JSON.stringify(lines);
  assert.doesNotMatch(text, /hunter2|Bearer abc/);
  assert.match(text, /"ok":1/);
  assert.equal(lines[0]?.service, 'svc');
});

test('when a line is written inside a request context, then it carries the request id', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ service: 'svc', sink: (line) => lines.push(line) });
  runWithRequestContext({ requestId: 'req123' }, () => logger.warn('x'));
  assert.equal(lines[0]?.request_id, 'req123');
});
