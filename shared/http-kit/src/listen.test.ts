import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { listen } from './listen';

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves with what the server sent before it closed the socket. */
function untilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.once('close', () => resolve(text));
    socket.once('error', () => undefined);
  });
}

test('when a client sends its headers too slowly, then the listener answers 408 and closes (no slowloris)', async () => {
  const server = await listen((_req, res) => res.end('ok'), 0, '127.0.0.1', { headersTimeoutMs: 500, requestTimeoutMs: 1_000 });
  try {
    const socket = await open(server.port);
    const closed = untilClosed(socket);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    assert.match(await closed, /^HTTP\/1\.1 408/);
  } finally {
    await server.close();
  }
});

test('when connections exceed the per-process cap, then the extra ones are closed at once', async () => {
  const server = await listen((_req, res) => res.end('ok'), 0, '127.0.0.1', { maxConnections: 2 });
  assert.equal(server.server.maxConnections, 2);
  const sockets: Socket[] = [];
  try {
    for (let i = 0; i < 2; i += 1) sockets.push(await open(server.port));
    const extra = await open(server.port);
    sockets.push(extra);
    assert.equal(await untilClosed(extra), '', 'closed without an answer');
  } finally {
    for (const s of sockets) s.destroy();
    await server.close();
  }
});
