import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from './index';

test('when a line carries tokens or passwords, then they are redacted at any depth', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ service: 'svc', sink: (line) => lines.push(line) });
  logger.info('login', { password: 'hunter2', nested: { Authorization: 'Bearer abc', ok: 1 }, token: 'x' });
  const text = JSON.stringify(lines);
  assert.doesNotMatch(text, /hunter2|Bearer abc/);
  assert.match(text, /"ok":1/);
  assert.equal(lines[0]?.service, 'svc');
});

test('when a line is written through a request\'s child logger, then it carries the request id and the service', async () => {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ service: 'svc', sink: (line) => lines.push(line) });
  const requestLog = logger.child({ request_id: 'req123' });
  await Promise.resolve();
  requestLog.warn('x', { n: 1 });
  logger.warn('y');
  assert.equal(lines[0]?.request_id, 'req123');
  assert.equal(lines[0]?.service, 'svc');
  assert.equal(lines[0]?.n, 1);
  assert.equal(lines[1]?.request_id, undefined, 'the service logger itself names no request');
});

test('when a secret sits inside text (message, error, path, URL), then it is masked whatever the key', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ service: 'svc', sink: (line) => lines.push(line) });
  const key = 'k1k2k3k4k5k6k7k8k9k0abcdef';
  logger.warn(`refused POST /hooks/${key}`, {
    path: `/api/v4/hooks/incoming/${key}`,
    url: `https://example.com/cb?token=${key}&x=1`,
    error: new Error(`callback to http://h/?access_token=${key} failed with Authorization: Bearer ${key}`),
    detail: { nested: [`whsec_${key}`, `v1,${Buffer.from(key).toString('base64')}`] },
    header: `Token ${key}`,
  });
  const text = JSON.stringify(lines);
  assert.doesNotMatch(text, new RegExp(key.slice(6)));
  assert.doesNotMatch(text, new RegExp(Buffer.from(key).toString('base64').slice(0, 20)));
  assert.match(text, /\/hooks\/k1k2k3…/);
  assert.match(text, /x=1/);
});

test('when a hook key follows dot segments or more path, then it is masked too', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ service: 'svc', sink: (line) => lines.push(line) });
  const key = 'q1q2q3q4q5q6q7q8q9q0abcdef';
  logger.info('request', { a: `/hooks/commands/./${key}`, b: `/hooks/commands/x/../${key}?y=1`, c: `/hooks/../hooks/${key}`, d: `/api/v4/hooks/incoming/./${key}` });
  assert.doesNotMatch(JSON.stringify(lines), new RegExp(key.slice(6)));
  assert.match(String(lines[0]?.b), /\?y=1$/, 'the query after the path is kept');
});

test('when text has no secret, then it is left as it is', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ service: 'svc', sink: (line) => lines.push(line) });
  logger.info('Token expired for user', { path: '/api/v4/hooks/outgoing/abc', list: '/api/v4/hooks/incoming?page=2', note: 'a basic check' });
  assert.equal(lines[0]?.message, 'Token expired for user');
  assert.equal(lines[0]?.path, '/api/v4/hooks/outgoing/abc');
  assert.equal(lines[0]?.list, '/api/v4/hooks/incoming?page=2');
  assert.equal(lines[0]?.note, 'a basic check');
});
