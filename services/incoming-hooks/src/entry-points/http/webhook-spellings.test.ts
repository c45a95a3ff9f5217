import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { metricsRegistry } from '@switchyard/metrics';
import { httpHarness, type HttpHarness } from '../../test-support/http-harness';

/** Hook posts answered by incoming-hooks so far, as the request metric counts them under the route template. */
async function hookRequestsCounted(status: number): Promise<number> {
  const text = await metricsRegistry().getSingleMetricAsString('switchyard_http_request_duration_seconds');
  const line = text.split('\n').find((l) => l.startsWith(`switchyard_http_request_duration_seconds_count{service="incoming-hooks",route="/hooks/:key",method="POST",status_code="${status}"}`));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

describe('POST /hooks/{key} in its plain form and other spellings', () => {
  let h: HttpHarness;
  let key: string;
  before(async () => {
    h = await httpHarness();
    key = (await h.createHook({ display_name: 'Builds' })).id;
  });
  after(async () => {
    await h.stop();
  });

  it('when a hook post takes the plain path or another spelling of it, then both are answered alike, with a request id, and counted under /hooks/:key', async () => {
    const counted = await hookRequestsCounted(200);
    const plain = await h.request('POST', `/hooks/${key}?wait=true`, { body: { text: 'plain' } });
    const routed = await h.request('POST', `/HOOKS/${key}/?wait=true`, { body: { text: 'routed' } });
    for (const res of [plain, routed]) {
      assert.equal(res.statusCode, 200);
      assert.equal((res.json() as { status?: unknown }).status, 'OK');
      assert.match(String(res.headers['x-request-id']), /^[a-z0-9]{26}$/);
    }
    assert.equal(await hookRequestsCounted(200), counted + 2);
    const [first, second] = h.bus.commands().slice(-2);
    assert.deepEqual([first?.value.payload.post.message, second?.value.payload.post.message], ['plain', 'routed']);
  });

  it('when a key is unknown on the plain path, then 400', async () => {
    const res = await h.request('POST', '/hooks/abcdefghijklmnopqrstuvwxyz', { body: { text: 'x' } });
    assert.equal(res.statusCode, 400);
    assert.equal((res.json() as { id?: unknown }).id, 'web.incoming_webhook.invalid.app_error');
  });

});
