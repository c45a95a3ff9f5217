import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertError } from './test-support/assert-error';
import { startHarness } from './test-support/harness';

function builtConsole(): string {
  const dir = mkdtempSync(join(tmpdir(), 'console-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Switchyard</title><script type="module" src="/assets/index-abc123.js"></script>');
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log("hi")');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

test('when the console is built, then / and any page path answer index.html, not cached, with the page CSP', async () => {
  const dir = builtConsole();
  const h = await startHarness({ env: { CONSOLE_DIR: dir } });
  try {
    for (const url of ['/', '/integrations/bots', '/channels/ops/town-square?x=1']) {
      const res = await h.request({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.equal(res.headers['cache-control'], 'no-cache');
      assert.match(String(res.headers['content-security-policy']), /script-src 'self'/);
      assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/);
      assert.match(res.body, /<title>Switchyard<\/title>/);
    }
  } finally {
    await h.stop();
    rmSync(dir, { recursive: true });
  }
});

test('when a hashed asset is asked for, then it is served with a year of immutable caching; an unknown asset is 404', async () => {
  const dir = builtConsole();
  const h = await startHarness({ env: { CONSOLE_DIR: dir } });
  try {
    const asset = await h.request({ method: 'GET', url: '/assets/index-abc123.js' });
    assert.equal(asset.statusCode, 200);
    assert.match(String(asset.headers['content-type']), /javascript/);
    assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(asset.body, 'console.log("hi")');
    const icon = await h.request({ method: 'GET', url: '/favicon.svg' });
    assert.equal(icon.statusCode, 200);
    assert.equal(icon.headers['cache-control'], 'no-cache');
    const missing = await h.request({ method: 'GET', url: '/assets/index-gone.js' });
    assert.equal(missing.statusCode, 404);
    assert.doesNotMatch(missing.body, /<title>/);
  } finally {
    await h.stop();
    rmSync(dir, { recursive: true });
  }
});

test('when the console is served, then /api, /hooks and unknown API paths keep their JSON AppErrors', async () => {
  const dir = builtConsole();
  const h = await startHarness({ env: { CONSOLE_DIR: dir } });
  try {
    const unknownApi = await h.request({ method: 'GET', url: '/api/v4/nothing-here' });
    assertError(unknownApi, 404, 'api.context.404.app_error');
    assert.equal(unknownApi.json().status_code, 404);
    const otherApi = await h.request({ method: 'GET', url: '/api/v3/users/me' });
    assert.equal(otherApi.statusCode, 404);
    assert.equal(otherApi.json().id, 'api.context.404.app_error');
    const hooksGet = await h.request({ method: 'GET', url: '/hooks/abc' });
    assert.notEqual(hooksGet.headers['content-type'], 'text/html; charset=utf-8');
    const forwarded = await h.request({ method: 'GET', url: '/api/v4/channels/abc' });
    assert.match(String(forwarded.headers['content-type']), /^application\/json/);
    assert.equal(forwarded.json().service, 'posts');
    const post = await h.request({ method: 'POST', url: '/', payload: '{}' });
    assertError(post, 404, 'api.context.404.app_error');
    assert.equal(post.json().status_code, 404);
  } finally {
    await h.stop();
    rmSync(dir, { recursive: true });
  }
});

test('when the console is not built, then / says how to build it instead of a blank page', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'console-empty-'));
  const h = await startHarness({ env: { CONSOLE_DIR: dir } });
  try {
    const res = await h.request({ method: 'GET', url: '/' });
    assert.equal(res.statusCode, 404);
    assert.match(res.body, /npm run build/);
  } finally {
    await h.stop();
    rmSync(dir, { recursive: true });
  }
});

test('when CONSOLE_DIR is empty, then / is the plain API 404', async () => {
  const h = await startHarness({ env: { CONSOLE_DIR: '' } });
  try {
    const res = await h.request({ method: 'GET', url: '/' });
    assertError(res, 404, 'api.context.404.app_error');
    assert.equal(res.json().status_code, 404);
  } finally {
    await h.stop();
  }
});

test('when a browser accepts gzip, then console files over 1 KiB are compressed, and API answers are not', async () => {
  const dir = builtConsole();
  writeFileSync(join(dir, 'assets', 'big-1.js'), `console.log(${JSON.stringify('x'.repeat(5000))})`);
  const h = await startHarness({ env: { CONSOLE_DIR: dir } });
  try {
    const asset = await h.request({ method: 'GET', url: '/assets/big-1.js', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(asset.statusCode, 200);
    assert.equal(asset.headers['content-encoding'], 'gzip');
    assert.ok(asset.rawPayload.length < 1000, `compressed to ${asset.rawPayload.length} bytes`);
    const api = await h.request({ method: 'GET', url: '/api/v4/nothing-here', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(api.headers['content-encoding'], undefined);
    assert.equal(api.headers['content-type'], 'application/json');
  } finally {
    await h.stop();
    rmSync(dir, { recursive: true });
  }
});
