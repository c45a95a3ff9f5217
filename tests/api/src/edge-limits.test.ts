import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { eventually } from './support/eventually';
import { assertAppError, assertJson, raw, sleep, type RawResponse } from './support/http';
import type { Target } from './support/target';

const TOO_LARGE = 'api.context.request_body_too_large.app_error';

/** A JSON array body of exactly `bytes` bytes: `["xxx…"]`. */
const arrayBody = (bytes: number): string => `["${'x'.repeat(bytes - 4)}"]`;

describe('payload size and rate limits', { timeout: 180_000 }, () => {
  let target: Target;
  let admin: AdminSession;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
  });
  after(() => target?.stop());

  /** PUT /config/patch with raw HTTP, waiting out 429s (bounded), so a restore cannot be lost to the limiter. */
  async function patchWithRetry(patch: unknown): Promise<RawResponse> {
    let response: RawResponse | undefined;
    for (let attempt = 0; attempt < 10; attempt++) {
      response = await raw(target.url, 'PUT', '/api/v4/config/patch', { token: admin.token, body: patch });
      if (response.status !== 429) break;
      await sleep(Math.min(5, Math.max(1, Number(response.headers.get('retry-after') ?? '1'))) * 1000);
    }
    assert.ok(response);
    assertJson(response, 200);
    return response;
  }

  /** Waits until `path` answers with (or without) X-RateLimit-Limit: on the distributed runtime the config reaches the gateway asynchronously. */
  const limitHeaders = (path: string, present: boolean, token?: string): Promise<true> =>
    eventually(`X-RateLimit-Limit ${present ? 'on' : 'gone from'} ${path}`, async () =>
      ((await raw(target.url, 'GET', path, { token })).headers.get('x-ratelimit-limit') !== null) === present ? true : undefined);

  describe('MaximumPayloadSizeBytes', () => {
    it('when a body is over the default 300000 bytes, then 413 api.context.request_body_too_large.app_error', async () => {
      const response = await raw(target.url, 'POST', '/api/v4/users/ids', { token: admin.token, rawBody: arrayBody(300_001) });
      assertAppError(response, 413, TOO_LARGE);
    });

    it('when a body is exactly at the limit, then it is read (not 413)', async () => {
      const response = await raw(target.url, 'POST', '/api/v4/users/ids', { token: admin.token, rawBody: arrayBody(300_000) });
      assert.notEqual(response.status, 413);
      assert.ok(response.status < 500, `got ${response.status} ${response.text.slice(0, 200)}`);
    });

    it('when an oversized body is streamed without Content-Length, then 413 too', async () => {
      const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('["'));
        },
        pull(controller) {
          if (sent >= 6) {
            controller.enqueue(new TextEncoder().encode('"]'));
            controller.close();
            return;
          }
          sent++;
          controller.enqueue(chunk);
        },
      });
      const response = await fetch(`${target.url}/api/v4/users/ids`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${admin.token}`, 'Content-Type': 'application/json' },
        body: stream,
        duplex: 'half',
        signal: AbortSignal.timeout(20_000),
      } as RequestInit);
      const text = await response.text();
      assert.equal(response.status, 413, text.slice(0, 200));
      assert.equal(JSON.parse(text).id, TOO_LARGE);
    });

    it('when the limit is lowered with a config patch, then it applies at once, and raising it again works', async () => {
      const original = (await admin.client.getConfig()).ServiceSettings.MaximumPayloadSizeBytes;
      await patchWithRetry({ ServiceSettings: { MaximumPayloadSizeBytes: 1000 } });
      try {
        assertAppError(await raw(target.url, 'POST', '/api/v4/users/ids', { token: admin.token, rawBody: arrayBody(1500) }), 413, TOO_LARGE);
        const small = await raw(target.url, 'POST', '/api/v4/users/ids', { token: admin.token, body: [admin.user.id] });
        assertJson(small, 200);
      } finally {
        await patchWithRetry({ ServiceSettings: { MaximumPayloadSizeBytes: original } });
      }
      const again = await raw(target.url, 'POST', '/api/v4/users/ids', { token: admin.token, rawBody: `[${JSON.stringify(admin.user.id)}${',"zzzzzzzzzzzzzzzzzzzzzzzzzz"'.repeat(60)}]` });
      assertJson(again, 200);
    });
  });

  describe('RateLimitSettings', () => {
    it('when VaryByUser is on and every request carries a made-up token, then they share the client address bucket (no bucket per invented token)', async () => {
      const before = (await admin.client.getConfig()).RateLimitSettings;
      const perSec = 1;
      const maxBurst = 3;
      await patchWithRetry({ RateLimitSettings: { Enable: true, PerSec: perSec, MaxBurst: maxBurst, VaryByRemoteAddr: false, VaryByUser: true, VaryByHeader: '' } });
      try {
        await limitHeaders('/api/v4/users/me', true, admin.token);
        const statuses: number[] = [];
        for (let i = 0; i < maxBurst + 6; i++) statuses.push((await raw(target.url, 'GET', '/api/v4/users/me', { token: `madeup${i}${'z'.repeat(20)}` })).status);
        assert.ok(statuses.includes(429), `invented tokens are limited together by address (statuses ${statuses.join(',')})`);
        assert.ok(statuses.filter((s) => s === 401).length <= maxBurst + 1, `at most one burst gets through to a 401 (statuses ${statuses.join(',')})`);
        assertJson(await raw(target.url, 'GET', '/api/v4/users/me', { token: admin.token }), 200);
      } finally {
        await patchWithRetry({ RateLimitSettings: { Enable: before.Enable, PerSec: before.PerSec, MaxBurst: before.MaxBurst, VaryByRemoteAddr: before.VaryByRemoteAddr, VaryByUser: before.VaryByUser } });
      }
    });

    it('when rate limiting is enabled with a small MaxBurst, then X-RateLimit-* headers appear and a burst gets 429 JSON with Retry-After', async () => {
      const before = (await admin.client.getConfig()).RateLimitSettings;
      const perSec = 2;
      const maxBurst = 3;
      await patchWithRetry({ RateLimitSettings: { Enable: true, PerSec: perSec, MaxBurst: maxBurst, VaryByRemoteAddr: true, VaryByUser: false, VaryByHeader: '' } });
      try {
        await limitHeaders('/api/v4/system/ping', true);
        await sleep(((maxBurst + 1) / perSec) * 1000 + 200); // let the bucket refill

        const responses: RawResponse[] = [];
        for (let i = 0; i < maxBurst + 5; i++) responses.push(await raw(target.url, 'GET', '/api/v4/users/me', { token: admin.token }));

        const first = responses[0]!;
        assertJson(first, 200);
        assert.equal(first.headers.get('x-ratelimit-limit'), String(maxBurst + 1), 'X-RateLimit-Limit is MaxBurst+1');
        const remaining = Number(first.headers.get('x-ratelimit-remaining'));
        assert.ok(Number.isInteger(remaining) && remaining >= 0 && remaining <= maxBurst, `X-RateLimit-Remaining ${remaining}`);
        const reset = Number(first.headers.get('x-ratelimit-reset'));
        assert.ok(Number.isInteger(reset) && reset >= 0 && reset <= Math.ceil((maxBurst + 1) / perSec) + 1, `X-RateLimit-Reset is seconds until full, got ${reset}`);

        const limited = responses.filter((r) => r.status === 429);
        assert.ok(limited.length >= 1, `a burst of ${maxBurst + 5} gets at least one 429 (statuses ${responses.map((r) => r.status).join(',')})`);
        assert.ok(responses.slice(0, maxBurst + 1).every((r) => r.status === 200), 'the first MaxBurst+1 requests pass');
        const tooMany = limited[0]!;
        assertAppError(tooMany, 429, 'api.context.rate_limit.app_error');
        const retryAfter = Number(tooMany.headers.get('retry-after'));
        assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After is whole seconds, got ${tooMany.headers.get('retry-after')}`);
        assert.equal(tooMany.headers.get('x-ratelimit-remaining'), '0');
        assert.equal(tooMany.headers.get('x-ratelimit-limit'), String(maxBurst + 1));

        await sleep(retryAfter * 1000 + 100);
        assertJson(await raw(target.url, 'GET', '/api/v4/users/me', { token: admin.token }), 200);
      } finally {
        await patchWithRetry({ RateLimitSettings: { Enable: before.Enable, PerSec: before.PerSec, MaxBurst: before.MaxBurst } });
      }
      if (!before.Enable) await limitHeaders('/api/v4/system/ping', false);
    });
  });
});
