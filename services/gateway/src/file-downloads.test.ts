import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Echo } from './test-support/fake-services';
import { startHarness } from './test-support/harness';

test('when file bytes are asked for, then the gateway takes the answer as a stream and passes it on whole, with its length; other routes are read as before', async () => {
  const h = await startHarness();
  try {
    const streamed = ['/api/v4/files/f1', '/api/v4/files/f1/thumbnail', '/api/v4/files/f1/preview?download=1', '/files/f1/public?h=abc'];
    const read = ['/api/v4/files/f1/info', '/api/v4/files/f1/link', '/api/v4/posts/p1/files/info'];
    for (const url of [...streamed, ...read]) {
      const res = await h.request({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
      assert.equal((res.json<Echo>()).url, url);
      // A streamed answer keeps the service's length (this fake sets none: chunked); a read one gets the gateway's.
      if (!streamed.includes(url)) assert.equal(res.headers['content-length'], String(Buffer.byteLength(res.body)), url);
      else assert.equal(res.headers['transfer-encoding'], 'chunked', url);
      const call = h.transport.calls[h.transport.calls.length - 1];
      assert.equal(call?.request.streamResponse === true, streamed.includes(url), url);
    }
    const upload = await h.request({ method: 'POST', url: '/api/v4/files?channel_id=c&filename=a.txt', payload: 'abc', headers: { 'content-type': 'application/octet-stream' } });
    assert.equal(upload.statusCode, 200);
    assert.notEqual(h.transport.calls[h.transport.calls.length - 1]?.request.streamResponse, true);
  } finally {
    await h.stop();
  }
});

test('when a streamed answer is for HEAD, then the client gets the head and no body', async () => {
  const h = await startHarness();
  try {
    const head = await h.request({ method: 'HEAD', url: '/files/f1/public?h=abc' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    assert.match(String(head.headers['x-request-id']), /^[a-z0-9]{26}$/);
  } finally {
    await h.stop();
  }
});
