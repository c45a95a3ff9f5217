import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commonErrors } from '@switchyard/errors';
import { createLogger } from '@switchyard/logger';
import { createHttpApp } from './create-http-app';
import { InProcessTransport } from './transport';
import { loggablePath } from './loggable-path';

const KEY = 'abcdefghijklmnopqrstuvwxyz';

test('when the path holds an incoming webhook key (public or API route), then only its first six characters are kept', () => {
  assert.equal(loggablePath(`/hooks/${KEY}`), '/hooks/abcdef…');
  assert.equal(loggablePath(`/hooks/${KEY}?wait=true`), '/hooks/abcdef…?wait=true');
  assert.equal(loggablePath(`/api/v4/hooks/incoming/${KEY}`), '/api/v4/hooks/incoming/abcdef…');
  assert.equal(loggablePath(`/hooks/commands/${KEY}`), '/hooks/commands/abcdef…');
});

test('when the path is another route, then it is unchanged (outgoing hook ids and list routes are not secrets)', () => {
  for (const path of ['/api/v4/users/me', '/api/v4/hooks/incoming', '/api/v4/hooks/outgoing', `/api/v4/hooks/outgoing/${KEY}/regen_token`, '/api/v4/hooks/incoming?page=1']) {
    assert.equal(loggablePath(path), path);
  }
});

test('when any route is refused, then its request log line carries no hook key and no query token', async () => {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ service: 'svc', sink: (line) => lines.push(line) });
  const http = createHttpApp({ service: 'svc', logger, ready: async () => ({ ok: true, checks: {} }) });
  http.app.use(() => {
    throw commonErrors.sessionExpired();
  });
  const transport = new InProcessTransport({ svc: http.finalize() });
  for (const path of [`/api/v4/hooks/incoming/${KEY}`, `/hooks/${KEY}`, `/api/v4/users/me?access_token=${KEY}`, `/api/v4/x?token=${KEY}&page=1`]) {
    assert.equal((await transport.send('svc', { method: 'PUT', path, headers: {} })).status, 401);
  }
  const text = JSON.stringify(lines);
  assert.equal(lines.length, 4);
  assert.doesNotMatch(text, new RegExp(KEY.slice(6)));
});
