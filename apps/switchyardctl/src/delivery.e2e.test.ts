import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCtl } from './test-support/run-ctl';

/**
 * `switchyardctl delivery ...` against the real product (the embedded runtime on an ephemeral loopback port):
 * a delivery made dead by the SSRF guard (a callback on 127.0.0.1 while the allow-list is empty: nothing is
 * sent) is listed, then re-queued once 127.0.0.1 is allowed and reaches the receiver with the same id.
 */
interface EmbeddedModule {
  startEmbedded(options: { port: number; host?: string; logLevel?: string }): Promise<{ url: string; stop(): Promise<void> }>;
}
const embedded = createRequire(__filename)('@switchyard/embedded') as EmbeddedModule;
const ADMIN_PASSWORD = 'Adm1n-e2e-Passw0rd';

interface Delivery {
  id: string;
  hook_id: string;
  post_id: string;
  status: string;
}

describe('switchyardctl delivery: dead outgoing webhook deliveries', () => {
  let server: { url: string; stop(): Promise<void> };
  let token = '';
  let receiver: Server;
  let receiverUrl = '';
  const received: { path: string; webhookId: string }[] = [];
  let hookId = '';
  let channelId = '';

  const api = async (method: string, path: string, body?: unknown, auth: string | undefined = token) => {
    const response = await fetch(`${server.url}/api/v4${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(auth ? { Authorization: `Bearer ${auth}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
  };
  const ctl = (args: string[]) => runCtl(['--url', server.url, '--token', token, ...args]);
  const ctlJson = async <T>(args: string[]): Promise<T> => {
    const result = await ctl(['--json', ...args]);
    assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout) as T;
  };
  const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const statusOf = async (id: string): Promise<string | undefined> => {
    const log = (await api('GET', `/hooks/outgoing/${hookId}/deliveries`)).body as unknown as Delivery[];
    return log.find((d) => d.id === id)?.status;
  };

  before(async () => {
    receiver = createServer((req, res) => {
      received.push({ path: req.url ?? '', webhookId: String(req.headers['webhook-id'] ?? '') });
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const started = await embedded.startEmbedded({ port: 0, host: '127.0.0.1', logLevel: 'error' });
    server = { url: started.url.replace('://0.0.0.0:', '://127.0.0.1:').replace(/\/+$/, ''), stop: () => started.stop() };
    assert.equal((await api('POST', '/users', { username: 'admin', email: 'admin@example.com', password: ADMIN_PASSWORD }, undefined)).status, 201);
    const login = await api('POST', '/users/login', { login_id: 'admin', password: ADMIN_PASSWORD }, undefined);
    token = login.headers.get('token') ?? '';
    const team = await api('POST', '/teams', { name: 'ctl-deliveries', display_name: 'Deliveries', type: 'O' });
    assert.equal(team.status, 201, JSON.stringify(team.body));
    const channel = await api('POST', '/channels', { team_id: team.body.id, name: 'hooked', display_name: 'Hooked', type: 'O' });
    assert.equal(channel.status, 201, JSON.stringify(channel.body));
    channelId = String(channel.body.id);
    const hook = await api('POST', '/hooks/outgoing', { team_id: team.body.id, channel_id: channelId, display_name: 'Blocked first', trigger_words: ['deliverme'], callback_urls: [`${receiverUrl}/hook`], content_type: 'application/json' });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    hookId = String(hook.body.id);
  });
  after(async () => {
    await server?.stop();
    receiver?.close();
  });

  let dead: Delivery | undefined;

  test('when a delivery is dead, then `delivery list` shows it (table and JSON) and `--status delivered` does not', async () => {
    const post = await api('POST', '/posts', { channel_id: channelId, message: 'deliverme please' });
    assert.equal(post.status, 201, JSON.stringify(post.body));
    dead = await waitFor('a dead delivery', async () => ((await api('GET', `/hooks/outgoing/${hookId}/deliveries`)).body as unknown as Delivery[]).find((d) => d.post_id === post.body.id && d.status === 'dead'));
    assert.equal(received.length, 0, 'the guard sent nothing');

    const listed = await ctlJson<Delivery[]>(['delivery', 'list']);
    assert.deepEqual(listed.map((d) => [d.id, d.hook_id, d.post_id, d.status]), [[dead.id, hookId, post.body.id, 'dead']]);
    const text = await ctl(['delivery', 'list', '--hook', hookId]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`^${hookId} +${dead.id} +${String(post.body.id)} +dead +`, 'm'));
    assert.deepEqual(await ctlJson<Delivery[]>(['delivery', 'list', '--status', 'delivered']), []);
    assert.deepEqual(await ctlJson<Delivery[]>(['delivery', 'list', '--since', new Date(Date.now() + 60_000).toISOString()]), []);
  });

  test('when the cause is fixed and the dead delivery is re-queued, then the receiver gets it with the same webhook-id', async () => {
    assert.ok(dead);
    const patched = await api('PUT', '/config/patch', { ServiceSettings: { AllowedUntrustedInternalConnections: '127.0.0.1' } });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const queued = await ctlJson<Delivery>(['delivery', 'redeliver', hookId, dead.id]);
    assert.equal(queued.id, dead.id);
    const request = await waitFor('the redelivered call', async () => received.find((r) => r.webhookId === dead?.id));
    assert.equal(request.path, '/hook');
    await waitFor('delivered', async () => ((await statusOf(dead?.id ?? '')) === 'delivered' ? true : undefined));
    assert.deepEqual(await ctlJson<Delivery[]>(['delivery', 'list']), []);
  });

  test('when redeliver-dead runs, then every dead delivery of every hook is queued again, and nothing when none is left', async () => {
    await api('PUT', '/config/patch', { ServiceSettings: { AllowedUntrustedInternalConnections: '' } });
    const post = await api('POST', '/posts', { channel_id: channelId, message: 'deliverme again' });
    const second = await waitFor('a second dead delivery', async () => ((await api('GET', `/hooks/outgoing/${hookId}/deliveries`)).body as unknown as Delivery[]).find((d) => d.post_id === post.body.id && d.status === 'dead'));
    await api('PUT', '/config/patch', { ServiceSettings: { AllowedUntrustedInternalConnections: '127.0.0.1' } });

    const queued = await ctlJson<Delivery[]>(['delivery', 'redeliver-dead']);
    assert.deepEqual(queued.map((d) => d.id), [second.id]);
    await waitFor('the second delivery delivered', async () => ((await statusOf(second.id)) === 'delivered' ? true : undefined));
    const none = await ctl(['delivery', 'redeliver-dead']);
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stdout, /^queued 0 deliveries again$/m);
  });

  test('when the command line is wrong or the hook unknown, then usage (2) or the server error id (1)', async () => {
    const badStatus = await ctl(['delivery', 'list', '--status', 'lost']);
    assert.equal(badStatus.code, 2);
    assert.match(badStatus.stderr, /--status must be one of/);
    const badSince = await ctl(['delivery', 'list', '--since', 'yesterday-ish']);
    assert.equal(badSince.code, 2);
    const unknown = await ctl(['delivery', 'redeliver', 'x'.repeat(26), 'y'.repeat(26)]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /^error: [a-z_.]+app_error: /m);
  });
});
