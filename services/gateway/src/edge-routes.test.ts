import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { RequestHandler } from 'express';
import { listen } from '@switchyard/http-kit';
import { startHarness } from './test-support/harness';

interface Raw {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** Sends the target byte for byte (fetch would resolve the dot segments first). */
function send(base: string, method: string, target: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}/`, { method, path: target }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('when a runtime edge route (the embedded backup) is asked for with dot segments, encoded characters or a trailing slash, then the gateway decides on the canonical path first', async () => {
  const seen: string[] = [];
  // Stands in for apps/embedded's backup route: an exact match on the path it is given.
  const backupLike: RequestHandler = (req, res, next) => {
    if ((req.url ?? '').split('?')[0] !== '/api/v4/system/backup') {
      next();
      return;
    }
    seen.push(req.url ?? '');
    res.status(200).end('backup');
  };
  const h = await startHarness({ edgeRoutes: backupLike });
  const edge = await listen(h.gateway.handler, 0, '127.0.0.1');
  try {
    // Dot segments: the reference router's 301, and the route is never run.
    for (const target of ['/api/v4/x/../system/backup', '/api/v4/system/%2e%2e/system/backup', '/api/v4/system//backup']) {
      const res = await send(edge.url, 'GET', target);
      assert.equal(res.status, 301, target);
      assert.equal(res.headers.location, '/api/v4/system/backup', target);
    }
    assert.deepEqual(seen, []);
    // An encoded letter is the same path once decoded: the route answers it, given the canonical target.
    const encoded = await send(edge.url, 'GET', '/api/v4/system/backu%70?x=1');
    assert.equal(encoded.status, 200);
    assert.equal(encoded.body, 'backup');
    assert.deepEqual(seen, ['/api/v4/system/backup?x=1']);
    // An encoded slash inside a segment, and a trailing slash, are 404 before the route.
    for (const target of ['/api/v4/system%2fbackup', '/api/v4/system/backup/']) {
      const res = await send(edge.url, 'GET', target);
      assert.equal(res.status, 404, target);
      assert.equal((JSON.parse(res.body) as { id: string }).id, 'api.context.404.app_error', target);
    }
    assert.equal(seen.length, 1);
    // The route's answer carries the gateway's standard headers, as every other answer.
    assert.equal(typeof encoded.headers['x-request-id'], 'string');
    assert.equal(typeof encoded.headers['x-version-id'], 'string');
  } finally {
    await edge.close();
    await h.stop();
  }
});
