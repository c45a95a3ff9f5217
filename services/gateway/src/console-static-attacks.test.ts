import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listen } from '@switchyard/http-kit';
import { startHarness } from './test-support/harness';

const SECRET = 'SECRET-OUTSIDE-THE-CONSOLE-FOLDER';

/** GET with the target sent byte for byte (no client-side dot-segment or backslash clean-up). */
function rawGet(base: string, target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(base);
    const req = request({ host: url.hostname, port: url.port, method: 'GET', path: target }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('when CONSOLE_DIR is asked for files outside it with path tricks, then nothing outside the folder is ever served, and never a 500', async () => {
  const root = mkdtempSync(join(tmpdir(), 'console-attack-'));
  const dir = join(root, 'dist');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Switchyard</title>');
  writeFileSync(join(dir, 'assets', 'app-1.js'), 'ok');
  writeFileSync(join(root, 'secret.txt'), SECRET);
  writeFileSync(join(dir, '.env'), SECRET);
  const h = await startHarness({ env: { CONSOLE_DIR: dir } });
  const server = await listen(h.gateway.handler, 0, '127.0.0.1');
  const targets = [
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/.%2e/secret.txt',
    '/%2E%2E/secret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets/..%2F..%2Fsecret.txt',
    '/..%5csecret.txt',
    '/assets/..%5c..%5csecret.txt',
    '/..\\secret.txt',
    '/assets\\..\\..\\secret.txt',
    '/%252e%252e/secret.txt',
    '/%c0%ae%c0%ae/secret.txt',
    '/secret.txt%00.js',
    '/%00/../secret.txt',
    '/assets/%00../../secret.txt',
    '//secret.txt',
    `/${encodeURIComponent(join(root, 'secret.txt'))}`,
    `/${join(root, 'secret.txt')}`,
    '/.env',
    '/%2eenv',
    '/assets/../.env',
  ];
  try {
    for (const target of targets) {
      const res = await rawGet(server.url, target);
      assert.ok(!res.body.includes(SECRET), `${target} served the secret (${res.status})`);
      assert.ok(res.status < 500, `${target} answered ${res.status}: ${res.body.slice(0, 200)}`);
    }
    assert.equal((await rawGet(server.url, '/assets/app-1.js')).body, 'ok', 'the folder itself is still served');
  } finally {
    await server.close();
    await h.stop();
    rmSync(root, { recursive: true });
  }
});
