import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { defaultSystemConfig } from '@switchyard/system-config';
import { startReceiver, type Receiver } from '../../test-support/receiver';
import { HttpIntegrationClient } from './integration-client.http';
import { OriginBreakers } from './origin-breakers';
import type { Resolver } from './ssrf-guard';

const loopbackResolver: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

function clientWith(allowList: string, options: { resolver?: Resolver; maxResponseBytes?: number } = {}): HttpIntegrationClient {
  const settings = { ...defaultSystemConfig().DeliverySettings };
  return new HttpIntegrationClient({ allowList: () => allowList, breakers: new OriginBreakers(() => settings), resolver: options.resolver ?? loopbackResolver, ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}) });
}

const post = (client: HttpIntegrationClient, url: string) => client.post({ url, headers: { 'Content-Type': 'application/json' }, body: '{"a":1}', timeoutMs: 2000 });

describe('integration client against loopback receivers', () => {
  let v4: Receiver;
  let v6: Receiver | undefined;

  before(async () => {
    v4 = await startReceiver('127.0.0.1', () => ({ status: 200, body: '{"ok":true}' }));
    v6 = await startReceiver('::1', () => ({ status: 200, body: '{"ok":6}' })).catch(() => undefined);
  });
  after(async () => {
    await v4.close();
    await v6?.close();
  });

  it('when 127.0.0.1 is not allow-listed, then the call is blocked and never reaches the receiver', async () => {
    const before = v4.requests.length;
    const result = await post(clientWith(''), `${v4.url}/x`);
    assert.equal(result.kind, 'failure');
    assert.equal(result.kind === 'failure' && result.reason, 'blocked');
    assert.equal(v4.requests.length, before);
  });

  it('when 127.0.0.1 is allow-listed, then the call goes through and the answer comes back', async () => {
    const result = await post(clientWith('127.0.0.1'), `${v4.url}/x`);
    assert.equal(result.kind, 'response');
    assert.equal(result.kind === 'response' && result.body, '{"ok":true}');
    assert.equal(v4.requests.at(-1)?.body, '{"a":1}');
  });

  it('when ::1 is the target, then it is blocked unless allow-listed', async (t) => {
    if (!v6) return t.skip('no IPv6 loopback on this machine');
    const url = `http://[::1]:${v6.port}/y`;
    const blocked = await post(clientWith('127.0.0.1'), url);
    assert.equal(blocked.kind === 'failure' && blocked.reason, 'blocked');
    const allowed = await post(clientWith('::1'), url);
    assert.equal(allowed.kind === 'response' && allowed.body, '{"ok":6}');
  });

  it('when the URL is the IPv4-mapped form of loopback, then it is blocked', async () => {
    const before = v4.requests.length;
    const result = await post(clientWith(''), `http://[::ffff:127.0.0.1]:${v4.port}/z`);
    assert.equal(result.kind === 'failure' && result.reason, 'blocked');
    assert.equal(v4.requests.length, before);
  });

  it('when a host name resolves to 127.0.0.1 (stubbed DNS), then it is blocked unless the name or address is allow-listed', async () => {
    const url = `http://receiver.test:${v4.port}/named`;
    const blocked = await post(clientWith(''), url);
    assert.equal(blocked.kind === 'failure' && blocked.reason, 'blocked');
    const byName = await post(clientWith('receiver.test'), url);
    assert.equal(byName.kind, 'response');
    assert.equal(v4.requests.at(-1)?.headers.host, `receiver.test:${v4.port}`);
  });

  it('when an allowed receiver redirects to a loopback address that is not allowed, then the redirect is blocked', async () => {
    const redirector = await startReceiver('127.0.0.1', () => ({ status: 303, headers: { Location: `http://127.0.0.2:${v4.port}/stolen` } }));
    try {
      const result = await post(clientWith('127.0.0.1'), `${redirector.url}/start`);
      assert.equal(result.kind === 'failure' && result.reason, 'blocked');
      assert.match(result.kind === 'failure' ? result.message : '', /127\.0\.0\.2/);
    } finally {
      await redirector.close();
    }
  });

  it('when an allowed receiver redirects (303) to another allowed path, then it is followed as GET', async () => {
    const redirector = await startReceiver('127.0.0.1', () => ({ status: 303, headers: { Location: `${v4.url}/after` } }));
    try {
      const result = await post(clientWith('127.0.0.1'), `${redirector.url}/start`);
      assert.equal(result.kind, 'response');
      const last = v4.requests.at(-1);
      assert.equal(last?.path, '/after');
      assert.equal(last?.method, 'GET');
    } finally {
      await redirector.close();
    }
  });

  const signed = { 'Content-Type': 'application/json', 'webhook-id': 'msg_1', 'webhook-timestamp': '1700000000', 'webhook-signature': 'v1,c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmU=', Authorization: 'Bearer hook-token', 'User-Agent': 'Switchyard' };
  const postSigned = (client: HttpIntegrationClient, url: string) => client.post({ url, headers: signed, body: '{"token":"hook-token","text":"hi"}', timeoutMs: 2000 });

  it('when a redirect (303) leaves the origin, then the next hop carries no token, signatures, credentials or body', async () => {
    const redirector = await startReceiver('127.0.0.1', () => ({ status: 303, headers: { Location: `${v4.url}/elsewhere` } }));
    try {
      const result = await postSigned(clientWith('127.0.0.1'), `${redirector.url}/start`);
      assert.equal(result.kind, 'response');
      const hop = v4.requests.at(-1);
      assert.equal(hop?.path, '/elsewhere');
      assert.equal(hop?.body, '');
      for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'authorization', 'content-type']) assert.equal(hop?.headers[name], undefined, name);
      assert.equal(hop?.headers['user-agent'], 'Switchyard');
      assert.equal(redirector.requests.at(-1)?.headers['webhook-signature'], signed['webhook-signature'], 'the first origin got them');
    } finally {
      await redirector.close();
    }
  });

  it('when a 307 or 308 redirect leaves the origin, then it is not followed (it would resend the token in the body)', async () => {
    for (const status of [307, 308]) {
      const redirector = await startReceiver('127.0.0.1', () => ({ status, headers: { Location: `${v4.url}/stolen` } }));
      try {
        const before = v4.requests.length;
        const result = await postSigned(clientWith('127.0.0.1'), `${redirector.url}/start`);
        assert.equal(result.kind === 'failure' && result.reason, 'blocked', String(status));
        assert.equal(v4.requests.length, before);
      } finally {
        await redirector.close();
      }
    }
  });

  it('when a 307 stays on the same origin, then the body and signatures go along', async () => {
    const same = await startReceiver('127.0.0.1', (request) => (request.path === '/start' ? { status: 307, headers: { Location: '/again' } } : { status: 200, body: 'ok' }));
    try {
      const result = await postSigned(clientWith('127.0.0.1'), `${same.url}/start`);
      assert.equal(result.kind === 'response' && result.body, 'ok');
      const hop = same.requests.at(-1);
      assert.equal(hop?.path, '/again');
      assert.equal(hop?.body, '{"token":"hook-token","text":"hi"}');
      assert.equal(hop?.headers['webhook-signature'], signed['webhook-signature']);
    } finally {
      await same.close();
    }
  });

  it('when the allow-list names 127.0.0.1 with a port, then only that port is allowed', async () => {
    const other = await startReceiver('127.0.0.1', () => ({ status: 200, body: 'other' }));
    try {
      const allowed = await post(clientWith(`127.0.0.1:${v4.port}`), `${v4.url}/ported`);
      assert.equal(allowed.kind === 'response' && allowed.body, '{"ok":true}');
      const before = other.requests.length;
      const blocked = await post(clientWith(`127.0.0.1:${v4.port}`), `${other.url}/ported`);
      assert.equal(blocked.kind === 'failure' && blocked.reason, 'blocked');
      assert.equal(other.requests.length, before);
    } finally {
      await other.close();
    }
  });

  it('when the answer is over the size cap, then the result is too_large', async () => {
    const big = await startReceiver('127.0.0.1', () => ({ status: 200, body: 'x'.repeat(5000) }));
    try {
      const result = await post(clientWith('127.0.0.1', { maxResponseBytes: 1000 }), `${big.url}/big`);
      assert.equal(result.kind === 'failure' && result.reason, 'too_large');
    } finally {
      await big.close();
    }
  });

  it('when the answer is gzip encoded, then its text comes back decoded, and the cap counts the decoded bytes', async () => {
    const server = createServer((req, res) => {
      const text = req.url === '/big' ? 'y'.repeat(5000) : '{"text":"unzipped"}';
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'X-Asked': String(req.headers['accept-encoding']) });
      res.end(gzipSync(text));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const small = await post(clientWith('127.0.0.1', { maxResponseBytes: 1000 }), `${url}/small`);
      assert.equal(small.kind === 'response' && small.body, '{"text":"unzipped"}');
      const big = await post(clientWith('127.0.0.1', { maxResponseBytes: 1000 }), `${url}/big`);
      assert.equal(big.kind === 'failure' && big.reason, 'too_large', 'about 40 gzip bytes that decode to 5000');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('when the receiver does not answer in time, then the result is a timeout', async () => {
    const slow = await startReceiver('127.0.0.1', () => new Promise((resolve) => setTimeout(() => resolve({ status: 200 }), 1000)));
    try {
      const result = await clientWith('127.0.0.1').post({ url: `${slow.url}/slow`, headers: {}, body: '', timeoutMs: 100 });
      assert.equal(result.kind === 'failure' && result.reason, 'timeout');
    } finally {
      await slow.close();
    }
  });

  it('when the answer starts in time but its body is still coming at the deadline, then the result is a timeout', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"a":');
      setTimeout(() => res.end('1}'), 1000).unref();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/trickle`;
      const started = performance.now();
      const result = await clientWith('127.0.0.1').post({ url, headers: {}, body: '', timeoutMs: 150 });
      assert.equal(result.kind === 'failure' && result.reason, 'timeout');
      assert.ok(performance.now() - started < 900, 'ended at the deadline, not when the body ended');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('when each redirect hop is in time but all of them together are not, then the result is a timeout (one deadline for the call)', async () => {
    const server = createServer((req, res) => {
      const hop = Number(/\/hop(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
      setTimeout(() => res.writeHead(307, { Location: `/hop${hop + 1}` }).end(), 60).unref();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hop0`;
      const result = await clientWith('127.0.0.1').post({ url, headers: {}, body: '', timeoutMs: 200 });
      assert.equal(result.kind === 'failure' && result.reason, 'timeout');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('when the callback URL carries a user and password, then they go as basic authorization', async () => {
    const result = await post(clientWith('127.0.0.1'), `http://hook%20user:p%40ss@127.0.0.1:${v4.port}/auth`);
    assert.equal(result.kind, 'response');
    const sent = v4.requests.at(-1);
    assert.equal(sent?.headers.authorization, `Basic ${Buffer.from('hook user:p@ss').toString('base64')}`);
  });

  it('when nothing listens on the port, then the result is a connection failure', async () => {
    const closed = await startReceiver('127.0.0.1');
    const url = closed.url;
    await closed.close();
    const result = await post(clientWith('127.0.0.1'), url);
    assert.equal(result.kind === 'failure' && result.reason, 'connection');
  });
});
