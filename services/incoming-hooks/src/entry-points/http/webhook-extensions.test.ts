import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../../test-support/assert-error';
import { httpHarness, type HttpHarness } from '../../test-support/http-harness';

type Json = Record<string, unknown>;

describe('POST /hooks/{key} extensions: Idempotency-Key, per-hook rate limit', () => {
  let h: HttpHarness;
  let hook: Json & { id: string };
  before(async () => {
    h = await httpHarness();
    hook = await h.createHook();
  });
  after(async () => {
    await h.stop();
  });
  const send = (body: unknown, headers: Record<string, string> = {}, query = '', key = hook.id) => h.request('POST', `/hooks/${key}${query}`, { body, headers });

  it('when the same Idempotency-Key is sent twice, then the second answer is the first one and nothing new is published', async () => {
    const first = await send({ text: 'once' }, { 'Idempotency-Key': 'deploy-42' }, '?wait=true');
    assert.equal(first.statusCode, 200);
    const count = h.bus.commands().length;
    const second = await send({ text: 'once' }, { 'Idempotency-Key': 'deploy-42' }, '?wait=true');
    assert.equal(second.statusCode, 200);
    assert.equal(second.body, first.body);
    assert.equal(second.headers['content-type'], 'application/json');
    assert.equal(h.bus.commands().length, count);
    const plain = await send({ text: 'once' }, { 'Idempotency-Key': 'deploy-42' });
    assert.equal(plain.body, first.body, 'the first answer is replayed exactly, even without ?wait');
  });

  it('when concurrent duplicates race, then exactly one is published and all get the same answer', async () => {
    const before = h.bus.commands().length;
    const answers = await Promise.all(Array.from({ length: 8 }, () => send({ text: 'race' }, { 'Idempotency-Key': 'race-1' }, '?wait=true')));
    assert.equal(h.bus.commands().length, before + 1);
    for (const answer of answers) {
      assert.equal(answer.statusCode, 200);
      assert.equal(answer.body, answers[0]?.body);
    }
  });

  it('when another hook or another key is used, then it is a new request', async () => {
    const other = await h.createHook();
    const before = h.bus.commands().length;
    await send({ text: 'a' }, { 'Idempotency-Key': 'shared' });
    await send({ text: 'a' }, { 'Idempotency-Key': 'shared' }, '', other.id);
    await send({ text: 'a' }, { 'Idempotency-Key': 'other' });
    assert.equal(h.bus.commands().length, before + 3);
  });

  it('when the first request was refused, then the refusal is replayed', async () => {
    const first = await send({ text: 'x', channel: 'nowhere' }, { 'Idempotency-Key': 'bad-1' });
    assertError(first, 404, 'web.incoming_webhook.channel.app_error');
    const second = await send({ text: 'x' }, { 'Idempotency-Key': 'bad-1' });
    assertError(second, 404, 'web.incoming_webhook.channel.app_error');
    assert.equal(second.body, first.body);
  });

  it('when the bus failed the first time, then the key is released and a retry posts', async () => {
    h.bus.fail = new Error('down');
    const failed = await send({ text: 'x' }, { 'Idempotency-Key': 'retry-1' });
    h.bus.fail = undefined;
    assert.ok(failed.statusCode >= 500);
    const before = h.bus.commands().length;
    const retried = await send({ text: 'x' }, { 'Idempotency-Key': 'retry-1' });
    assert.equal(retried.statusCode, 200);
    assert.equal(h.bus.commands().length, before + 1);
  });

  it('when 24 hours have passed, then the key may be used again', async () => {
    await send({ text: 'x' }, { 'Idempotency-Key': 'daily' });
    const before = h.bus.commands().length;
    h.clock.advance(24 * 60 * 60 * 1000 + 1);
    await send({ text: 'x' }, { 'Idempotency-Key': 'daily' });
    assert.equal(h.bus.commands().length, before + 1);
  });

  it('when the Idempotency-Key is longer than 255 characters, then 400 invalid_param', async () => {
    const res = await send({ text: 'x' }, { 'Idempotency-Key': 'k'.repeat(256) });
    assert.equal(res.statusCode, 400);
    assert.equal((res.json() as { id: string }).id, 'api.context.invalid_param.app_error');
  });

  it('when a hook goes over IncomingWebhookPerSec + MaxBurst, then 429 api.context.rate_limit.app_error with Retry-After; other hooks are unaffected', async () => {
    h.setConfig((c) => {
      c.RateLimitSettings.IncomingWebhookPerSec = 2;
      c.RateLimitSettings.IncomingWebhookMaxBurst = 3;
    });
    try {
      const limited = await h.createHook();
      const statuses: number[] = [];
      let refused: Awaited<ReturnType<typeof send>> | undefined;
      for (let i = 0; i < 8; i += 1) {
        const res = await send({ text: `n${i}` }, {}, '', limited.id);
        statuses.push(res.statusCode);
        if (res.statusCode === 429) refused ??= res;
      }
      assert.deepEqual(statuses.slice(0, 5), [200, 200, 200, 200, 200], 'rate plus burst pass');
      assert.ok(statuses.slice(5).includes(429), statuses.join(','));
      assert.ok(refused);
      assert.equal(refused.headers['content-type'], 'application/json');
      assert.equal((refused.json() as { id: string }).id, 'api.context.rate_limit.app_error');
      assert.ok(Number(refused.headers['retry-after']) >= 1);
      const fresh = await h.createHook();
      assert.equal((await send({ text: 'x' }, {}, '', fresh.id)).statusCode, 200);
    } finally {
      h.setConfig((c) => {
        c.RateLimitSettings.IncomingWebhookPerSec = 0;
        c.RateLimitSettings.IncomingWebhookMaxBurst = 0;
      });
    }
  });
});
