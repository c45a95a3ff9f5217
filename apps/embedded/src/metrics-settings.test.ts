import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metricsTarget } from './metrics-listener';
import { startEmbedded, type RunningEmbedded } from './start-embedded';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The status of GET url, or 'refused' when nothing listens there. */
async function statusOf(url: string): Promise<number | 'refused'> {
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 'refused';
  }
}

async function admin(base: string): Promise<string> {
  const body = (value: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });
  const created = await fetch(`${base}/api/v4/users`, body({ username: 'metricsadmin', email: 'metricsadmin@example.com', password: 'Metrics-admin-1' }));
  assert.equal(created.status, 201);
  const login = await fetch(`${base}/api/v4/users/login`, body({ login_id: 'metricsadmin', password: 'Metrics-admin-1' }));
  return login.headers.get('token') ?? '';
}

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/api/v4/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login_id: 'metricsadmin', password: 'Metrics-admin-1' }) });
  return res.headers.get('token') ?? '';
}

async function patchMetrics(base: string, token: string, settings: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}/api/v4/config/patch`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ MetricsSettings: settings }),
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { MetricsSettings: Record<string, unknown> }).MetricsSettings;
}

/** Waits (bounded) until the runtime reports the metrics URL `expected`: the listener has been reset. */
async function listenerAt(running: RunningEmbedded, expected: string | undefined): Promise<void> {
  const until = Date.now() + 10_000;
  while (running.metricsUrl !== expected) {
    if (Date.now() > until) throw new Error(`metrics listener at ${running.metricsUrl}, expected ${expected}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('MetricsSettings in the config document', () => {
  it('when only the document speaks, then Enable and ListenAddress decide; each env key set takes precedence over its own', () => {
    const doc = { Enable: true, ListenAddress: '127.0.0.1:9100' };
    assert.deepEqual(metricsTarget(doc, {}), { host: '127.0.0.1', port: 9100 });
    assert.deepEqual(metricsTarget({ Enable: true, ListenAddress: ':8067' }, {}), { host: '0.0.0.0', port: 8067 });
    assert.equal(metricsTarget({ ...doc, Enable: false }, {}), undefined);
    assert.equal(metricsTarget(doc, { enabled: false }), undefined);
    assert.deepEqual(metricsTarget({ ...doc, Enable: false }, { enabled: true }), { host: '127.0.0.1', port: 9100 });
    assert.deepEqual(metricsTarget(doc, { port: 9200 }), { host: '0.0.0.0', port: 9200 });
    assert.deepEqual(metricsTarget(doc, { port: 9200, host: '127.0.0.2' }), { host: '127.0.0.2', port: 9200 });
    assert.equal(metricsTarget({ ...doc, Enable: false }, { port: 9200 }), undefined, 'METRICS_PORT sets the address only');
    assert.throws(() => metricsTarget({ Enable: true, ListenAddress: 'nowhere' }, {}), /not \[host\]:port/);
  });

  it('when MetricsSettings changes, then the embedded runtime moves or closes its listener live, and uses the stored document at start', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'metrics-settings-'));
    const [p1, p2] = [await freePort(), await freePort()];
    const url = (port: number): string => `http://127.0.0.1:${port}/metrics`;
    try {
      // The env turns metrics off: the document's address is stored but not used.
      const first = await startEmbedded({ port: 0, host: '127.0.0.1', logLevel: 'error', dataDir, metrics: { enabled: false } });
      try {
        const token = await admin(first.url);
        const stored = await patchMetrics(first.url, token, { ListenAddress: `127.0.0.1:${p1}` });
        assert.deepEqual(stored, { Enable: true, BlockProfileRate: 0, ListenAddress: `127.0.0.1:${p1}` });
        assert.equal(first.metricsUrl, undefined);
        assert.equal(await statusOf(url(p1)), 'refused');
      } finally {
        await first.stop();
      }

      // No env key: the stored document decides at start, then every change applies without a restart.
      const second = await startEmbedded({ port: 0, host: '127.0.0.1', logLevel: 'error', dataDir, metrics: {} });
      try {
        assert.equal(second.metricsUrl, url(p1));
        assert.equal(await statusOf(url(p1)), 200);
        const token = await login(second.url);
        await patchMetrics(second.url, token, { ListenAddress: `127.0.0.1:${p2}` });
        await listenerAt(second, url(p2));
        assert.equal(await statusOf(url(p2)), 200);
        assert.equal(await statusOf(url(p1)), 'refused');
        await patchMetrics(second.url, token, { Enable: false });
        await listenerAt(second, undefined);
        assert.equal(await statusOf(url(p2)), 'refused');
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
