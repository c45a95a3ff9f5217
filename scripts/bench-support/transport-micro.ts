/**
 * CPU per service-to-service call for the three ways of reaching an express app (docs/adr/0023): http-kit's
 * in-process dispatch, light-my-request's inject (the previous in-process transport) and the HTTP transport
 * over loopback (server and client in this one process, so its figure holds both sides). A createHttpApp app
 * with one JSON route that reads a small body. Figures only, no goals:
 *   node --conditions=source --import tsx scripts/bench-support/transport-micro.ts [calls]
 */
import { Readable } from 'node:stream';
import { inject } from 'light-my-request';
import { createHttpApp, HttpTransport, InProcessTransport, jsonBody, listen, rawBody, requestPrototypes, sendJson, type ServiceTransport } from '@switchyard/http-kit';
import { createSilentLogger } from '@switchyard/logger';

const calls = Number(process.argv[2] ?? 20_000);
const body = Buffer.from(JSON.stringify({ channel_id: 'c'.repeat(26), message: 'hello from the transport micro bench' }));
const headers = { 'content-type': 'application/json', 'x-request-id': 'r'.repeat(26) };

function app() {
  const http = createHttpApp({ service: 'micro', logger: createSilentLogger(), ready: async () => ({ ok: true, checks: {} }), trustRequestId: true });
  http.app.post('/api/v4/posts', rawBody(() => 65_536), jsonBody, (req, res) => sendJson(res, 201, { id: 'p'.repeat(26), echo: (req.body as { message?: string }).message }));
  return http.finalize();
}

async function measure(name: string, once: () => Promise<number>): Promise<number> {
  for (let i = 0; i < Math.min(5_000, calls); i++) await once();
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    const status = await once();
    if (status !== 201) throw new Error(`${name}: status ${status}`);
  }
  const used = process.cpuUsage(start);
  const us = (used.user + used.system) / calls;
  process.stdout.write(`${name}: ${us.toFixed(1)} us CPU per call (${calls} calls)\n`);
  return us;
}

async function main(): Promise<void> {
  const handler = app();
  const inProcess = new InProcessTransport({ micro: handler });
  const viaTransport = (transport: ServiceTransport) => async () => (await transport.send('micro', { method: 'POST', path: '/api/v4/posts', headers, body })).status;
  await measure('in-process dispatch (InProcessTransport)', viaTransport(inProcess));
  // The same body as a stream (how uploads travel, ADR 0029): the cost a small JSON body would pay if every body streamed.
  const streamed = (transport: ServiceTransport) => async () => (await transport.send('micro', { method: 'POST', path: '/api/v4/posts', headers, body: Readable.from([body]), bodyLength: body.length })).status;
  await measure('in-process dispatch, body streamed', streamed(inProcess));
  const injected = app();
  await measure('light-my-request inject', async () => (await inject(injected, { method: 'POST', url: '/api/v4/posts', headers, payload: body })).statusCode);
  const served = app();
  const server = await listen(served, 0, '127.0.0.1', { prototypes: requestPrototypes(served) });
  const http = new HttpTransport({ micro: server.url });
  await measure('HTTP transport over loopback (both sides)', viaTransport(http));
  await measure('HTTP transport over loopback, body streamed', streamed(http));
  await http.close();
  await server.close();
}

void main();
