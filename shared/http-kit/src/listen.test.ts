import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import express from 'express';
import { listen } from './listen';
import { requestPrototypes, useOwnPrototypes } from './own-prototypes';

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

test('when listen is given an express app\'s prototypes, then requests and responses are born with them and express serves them unchanged', async () => {
  const app = express();
  useOwnPrototypes(app);
  app.post('/echo/:id', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => res.status(201).set('X-Id', req.params.id).json({ body: Buffer.concat(chunks).toString('utf8'), agent: req.get('user-agent') }));
  });
  const seen: { request: boolean; response: boolean }[] = [];
  // What the server hands over, before express swaps anything.
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    seen.push({ request: Object.getPrototypeOf(req) === app.request, response: Object.getPrototypeOf(res) === app.response });
    app(req, res);
  };
  const server = await listen(handler, 0, '127.0.0.1', { prototypes: requestPrototypes(app) });
  try {
    for (let i = 0; i < 2; i += 1) {
      const res = await fetch(`${server.url}/echo/a${i}`, { method: 'POST', body: `hello ${i}`, headers: { 'user-agent': 'probe' } });
      assert.equal(res.status, 201);
      assert.equal(res.headers.get('x-id'), `a${i}`);
      assert.deepEqual(await res.json(), { body: `hello ${i}`, agent: 'probe' });
    }
    assert.deepEqual(seen, [{ request: true, response: true }, { request: true, response: true }]);
  } finally {
    await server.close();
  }
});

test('when the listener is not an express app, then it has no prototypes to give and requests are node\'s own', async () => {
  assert.equal(requestPrototypes((_req: IncomingMessage, res: ServerResponse) => res.end()), undefined);
  assert.equal(requestPrototypes({ request: {}, response: {}, handle: () => undefined }), undefined);
  const fake = Object.assign(() => undefined, { request: {}, response: {}, handle: () => undefined });
  assert.equal(requestPrototypes(fake), undefined, 'prototypes that do not extend IncomingMessage/ServerResponse are refused');
  const server = await listen((req, res) => res.end(String(Object.getPrototypeOf(req) === IncomingMessage.prototype)), 0, '127.0.0.1');
  try {
    assert.equal(await (await fetch(server.url)).text(), 'true');
  } finally {
    await server.close();
  }
});

test('when an express app has no prototypes of its own (a bare express()), then listen serves it with node\'s classes and express swaps', async () => {
  const app = express();
  const born: boolean[] = [];
  app.get('/x', (req, res) => res.json({ swapped: Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response }));
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    born.push(Object.getPrototypeOf(req) === IncomingMessage.prototype);
    app(req, res);
  };
  const server = await listen(handler, 0, '127.0.0.1', { prototypes: requestPrototypes(app) });
  try {
    assert.deepEqual(await (await fetch(`${server.url}/x`)).json(), { swapped: true });
    assert.deepEqual(born, [true]);
  } finally {
    await server.close();
  }
});

/**
 * A child node with --allow-natives-syntax serves a few requests through listen with an app's own prototypes and
 * prints, per request, whether the request and response were in V8's fast mode (not dictionary mode) at the
 * handler and at 'finish'. The probe is checked on a dictionary-mode object too, so it cannot always say yes.
 */
const FAST_MODE_CHILD = `
const express = require('express');
const { listen } = require(${JSON.stringify(join(__dirname, 'listen.ts'))});
const { requestPrototypes, useOwnPrototypes } = require(${JSON.stringify(join(__dirname, 'own-prototypes.ts'))});
const fast = new Function('o', 'return %HasFastProperties(o)');
const dictionary = {};
for (let i = 0; i < 2000; i += 1) dictionary['k' + i] = i;
const app = express();
useOwnPrototypes(app);
const seen = [];
app.get('/x', (req, res) => {
  const entry = { born: Object.getPrototypeOf(res) === app.response, request: fast(req), response: fast(res) };
  res.once('finish', () => { entry.finishedRequest = fast(req); entry.finishedResponse = fast(res); });
  seen.push(entry);
  res.json({ ok: true });
});
(async () => {
  const server = await listen(app, 0, '127.0.0.1', { prototypes: requestPrototypes(app) });
  for (let i = 0; i < 3; i += 1) await (await fetch(server.url + '/x')).text();
  await new Promise((resolve) => setTimeout(resolve, 20));
  await server.close();
  process.stdout.write(JSON.stringify({ probe: fast(dictionary), seen }));
})();
`;

test('when listen serves an app with its own prototypes, then requests and responses stay in V8\'s fast mode (no dictionary-mode objects)', async () => {
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, ['--allow-natives-syntax', '--conditions=source', '--import', 'tsx', '-e', FAST_MODE_CHILD], { cwd: __dirname }, (error, out, err) =>
      error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out),
    );
  });
  const { probe, seen } = JSON.parse(stdout) as { probe: boolean; seen: unknown[] };
  assert.equal(probe, false, 'the probe tells a dictionary-mode object');
  const fastAll = { born: true, request: true, response: true, finishedRequest: true, finishedResponse: true };
  assert.deepEqual(seen, [fastAll, fastAll, fastAll]);
});
