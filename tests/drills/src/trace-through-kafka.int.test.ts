import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, cleanupRun, freePort, isolation, realServers, ServiceProcess } from './support/processes';

const servers = realServers();

interface ReceivedSpan {
  readonly service: string;
  readonly name: string;
  readonly kind: number;
  readonly traceId: string;
}

/** OTLP/HTTP JSON ids may come hex or base64 depending on the exporter version: always compare hex. */
function hexId(id: unknown): string {
  const text = String(id);
  return /^[0-9a-f]+$/i.test(text) ? text.toLowerCase() : Buffer.from(text, 'base64').toString('hex');
}

/** A loopback OTLP/HTTP (JSON) trace receiver that keeps every span it is sent. */
async function startReceiver(): Promise<{ server: Server; url: string; spans: ReceivedSpan[] }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans?: { resource?: { attributes?: { key: string; value: { stringValue?: string } }[] }; scopeSpans?: { spans?: { name: string; kind: number; traceId: string }[] }[] }[];
        };
        for (const rs of body.resourceSpans ?? []) {
          const service = rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) spans.push({ service, name: s.name, kind: s.kind, traceId: hexId(s.traceId) });
        }
      } catch {
        // not JSON: ignored
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, spans };
}

async function eventually<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`${what}: not seen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Drill: a request enters the gateway with a W3C `traceparent`; users-bots creates the user and publishes
 * users.events (trace context in the Kafka headers); the gateway's cache consumer handles the message.
 * The same trace id must be on the gateway's request span, on the consumer's span, and in the consumer's
 * log line for that message.
 */
describe('drill: one trace id from a gateway request through Kafka into the consumer log', { skip: servers.skip }, () => {
  const names = isolation();
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let gateway: ServiceProcess;
  let usersBots: ServiceProcess;

  before(async () => {
    if (servers.skip !== false) return;
    receiver = await startReceiver();
    const env = {
      ...servers.env,
      KAFKA_NAMESPACE: names.KAFKA_NAMESPACE ?? '',
      REDIS_KEY_PREFIX: names.REDIS_KEY_PREFIX ?? '',
      INTERNAL_SECRET: randomBytes(24).toString('base64url'),
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
    };
    usersBots = new ServiceProcess('users-bots', await freePort(), { ...env, LOG_LEVEL: 'info', MONGO_DB: `${names.MONGO_DB_PREFIX}users` });
    gateway = new ServiceProcess('gateway', await freePort(), { ...env, LOG_LEVEL: 'debug', SERVICE_URLS: `users-bots=${usersBots.url}` });
    usersBots.start();
    await usersBots.waitReady();
    gateway.start();
    await gateway.waitReady('/api/v4/system/ping');
  });

  after(async () => {
    await gateway?.stop();
    await usersBots?.stop();
    await new Promise<void>((r) => (receiver ? receiver.server.close(() => r()) : r()));
    if (names.RUN_ID) await cleanupRun(names.RUN_ID);
  });

  it('when a user is created through the gateway, then its trace id is on the request span, the Kafka consumer span and the consumer log line', async () => {
    const traceId = randomBytes(16).toString('hex');
    const username = `trace${randomBytes(3).toString('hex')}`;
    const created = await call(gateway.url, 'POST', '/api/v4/users', {
      body: { username, email: `${username}@example.com`, password: 'Trace-pass-123' },
      headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const userId = String(created.body.id);

    // The gateway consumed users.events for this user: its log line for that message carries the trace id.
    const line = await eventually('the gateway log line for the users.events message', () =>
      gateway.lines.find((l) => l.message === 'cached sessions dropped' && l.user_id === userId),
    );
    if (process.env.DRILL_DEBUG) {
      await new Promise((r) => setTimeout(r, 1500));
      process.stdout.write(`# want ${traceId} log ${String(line.trace_id)}\n${receiver.spans.map((s) => `# ${s.traceId} ${s.service} ${s.kind} ${s.name}`).join('\n')}\n`);
    }
    assert.equal(line.trace_id, traceId);
    assert.equal(line.service, 'gateway');

    // users-bots logged inside the same trace too (every line carries trace_id while a span is active).
    const spans = await eventually('the spans of the trace', () => {
      const mine = receiver.spans.filter((s) => s.traceId === traceId);
      const request = mine.find((s) => s.service === 'gateway' && s.kind === 2); // SERVER
      const consumer = mine.find((s) => s.service === 'gateway' && s.name.endsWith('users.events process'));
      const producer = mine.find((s) => s.service === 'users-bots' && s.name.endsWith('users.events publish'));
      return request && consumer && producer ? { request, consumer, producer } : undefined;
    });
    assert.equal(spans.request.traceId, traceId);
    assert.equal(spans.producer.traceId, traceId);
    assert.equal(spans.consumer.traceId, traceId);
    process.stdout.write(`# drill: trace ${traceId}: ${receiver.spans.filter((s) => s.traceId === traceId).map((s) => `${s.service}:${s.name}`).join(', ')}\n`);
  });
});
