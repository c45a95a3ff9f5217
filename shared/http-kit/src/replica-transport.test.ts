import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { Duplex } from 'node:stream';
import { HttpTransport } from './transport';

async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const sockets = new Set<Duplex>();

/** Stops a server and drops every connection it still has (upgraded ones included). */
async function shut(server: Server): Promise<void> {
  for (const socket of sockets) socket.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A replica that answers requests with its name and upgrades by echoing `<name>:` + each chunk. */
function replica(name: string): Server {
  const server = createServer((_req, res) => res.end(name));
  server.on('upgrade', (_req: IncomingMessage, socket: Duplex) => {
    sockets.add(socket);
    socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n');
    socket.on('data', (chunk: Buffer) => socket.write(`${name}:${chunk.toString()}`));
  });
  return server;
}

/** Upgrades through `edge` and returns the first echoed answer to "hi", or the refusal's status. */
function upgradeThrough(edge: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(`${edge}/ws`, { agent: false, headers: { connection: 'Upgrade', upgrade: 'test' } });
    req.on('upgrade', (_res, socket) => {
      socket.once('data', (chunk: Buffer) => {
        resolve(chunk.toString());
        socket.destroy();
      });
      socket.write('hi');
    });
    req.on('response', (res) => resolve(`status ${res.statusCode}`));
    req.on('error', reject);
    req.end();
  });
}

test('when a service has two replicas and the first is down, then requests and upgrades reach the second; with both down an upgrade is 503', async () => {
  const live = replica('b');
  const liveUrl = await listening(live);
  const dead = `http://127.0.0.1:${await closedPort()}`;
  const transport = new HttpTransport({ svc: `${dead}|${liveUrl}`, gone: `${dead}|${dead}` }, 2000);
  const edge = createServer((_req, res) => res.end());
  edge.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    sockets.add(socket);
    transport.upgrade('svc', req, socket, head, { 'x-test': '1' });
  });
  const edgeUrl = await listening(edge);
  try {
    const answer = await transport.send('svc', { method: 'GET', path: '/', headers: {} });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.toString(), 'b');
    // Upgrades start at each replica in turn: both turns end on the live one.
    assert.equal(await upgradeThrough(edgeUrl), 'b:hi');
    assert.equal(await upgradeThrough(edgeUrl), 'b:hi');
    await assert.rejects(transport.send('gone', { method: 'GET', path: '/', headers: {} }), (error: Error & { statusCode?: number }) => error.statusCode === 503);
    const goneTransport = new HttpTransport({ svc: `${dead}|${dead}` }, 2000);
    const goneEdge = createServer((_req, res) => res.end());
    goneEdge.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => goneTransport.upgrade('svc', req, socket, head, {}));
    const goneUrl = await listening(goneEdge);
    assert.equal(await upgradeThrough(goneUrl), 'status 503');
    await shut(goneEdge);
    await goneTransport.close();
  } finally {
    await transport.close();
    await shut(edge);
    await shut(live);
  }
});
