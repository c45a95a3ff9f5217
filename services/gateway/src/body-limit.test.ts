import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { listen } from '@switchyard/http-kit';
import { PictureUploadLimits } from '@switchyard/contracts';
import { assertError } from './test-support/assert-error';
import { startHarness } from './test-support/harness';

test('when a body is over MaximumPayloadSizeBytes, then 413 request_body_too_large and the service is not called', async () => {
  const h = await startHarness({ config: (c) => (c.ServiceSettings.MaximumPayloadSizeBytes = 100) });
  try {
    const ok = await h.echo({ method: 'POST', url: '/api/v4/posts', payload: 'x'.repeat(100) });
    assert.equal(ok.body.length, 100);
    const calls = h.transport.calls.length;
    const res = await h.request({ method: 'POST', url: '/api/v4/posts', payload: 'x'.repeat(101) });
    assert.equal(res.statusCode, 413);
    assert.equal(res.headers['content-type'], 'application/json');
    assert.equal(res.json().id, 'api.context.request_body_too_large.app_error');
    assert.equal(h.transport.calls.length, calls);
  } finally {
    await h.stop();
  }
});

test('when the limit is changed in the config, then it applies without restart', async () => {
  const h = await startHarness();
  try {
    assert.equal((await h.request({ method: 'POST', url: '/api/v4/posts', payload: 'x'.repeat(5000) })).statusCode, 200);
    await h.publishConfig({ ...h.usersBots.config, ServiceSettings: { ...h.usersBots.config.ServiceSettings, MaximumPayloadSizeBytes: 1000 } });
    assertError(await h.request({ method: 'POST', url: '/api/v4/posts', payload: 'x'.repeat(5000) }), 413, 'api.context.request_body_too_large.app_error');
  } finally {
    await h.stop();
  }
});

test('when a chunked upload streams past the limit, then it is refused without waiting for the end', async () => {
  const h = await startHarness({ config: (c) => (c.ServiceSettings.MaximumPayloadSizeBytes = 1024) });
  const server = await listen(h.gateway.handler, 0, '127.0.0.1');
  try {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}/api/v4/posts`, { method: 'POST', headers: { 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      // Never ends on its own: only the gateway's early answer settles this.
      const chunk = Buffer.alloc(512, 'x');
      let sent = 0;
      const pump = (): void => {
        if (sent > 64) return;
        sent += 1;
        req.write(chunk, () => setImmediate(pump));
      };
      pump();
    });
    assert.equal(status, 413);
  } finally {
    await server.close();
    await h.stop();
  }
});

test('when a picture is uploaded, then its own limit applies instead of MaximumPayloadSizeBytes, and only on that route', async () => {
  const h = await startHarness({ config: (c) => (c.ServiceSettings.MaximumPayloadSizeBytes = 1000) });
  try {
    const picture = await h.echo({ method: 'POST', url: '/api/v4/users/me/image', payload: 'x'.repeat(5000) });
    assert.equal(picture.body.length, 5000);
    assert.equal((await h.request({ method: 'POST', url: '/api/v4/bots/abc/icon', payload: 'x'.repeat(5000) })).statusCode, 200);
    const other = await h.request({ method: 'POST', url: '/api/v4/users/me/image/default', payload: 'x'.repeat(5000) });
    assert.equal(other.statusCode, 413);
    const icon = await h.request({ method: 'POST', url: '/api/v4/bots/abc/icon', payload: 'x'.repeat(PictureUploadLimits.botIconBytes + 1) });
    assert.equal(icon.statusCode, 413);
    assert.equal(icon.json().id, 'api.bot.set_bot_icon_image.too_large.app_error');
    const image = await h.request({ method: 'POST', url: '/api/v4/users/me/image', payload: 'x'.repeat(PictureUploadLimits.profileImageBytes + 1) });
    assert.equal(image.json().id, 'api.user.upload_profile_user.too_large.app_error');
  } finally {
    await h.stop();
  }
});
