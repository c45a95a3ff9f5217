import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Response } from 'express';
import { InProcessTransport } from '@switchyard/http-kit';
import { ClientGone } from './entry-points/http/client-gone';

/** A response as far as ClientGone looks at it: its `close` and whether it ended. */
const response = (): EventEmitter & { writableEnded: boolean } => Object.assign(new EventEmitter(), { writableEnded: false });

test('when the client leaves before its answer, then the one listener is told once and the signal is aborted; after the answer, a close tells nobody', () => {
  const left = response();
  const gone = new ClientGone(left as unknown as Response);
  let told = 0;
  gone.addEventListener('abort', () => (told += 1));
  assert.equal(gone.aborted, false);
  left.emit('close');
  left.emit('close');
  assert.equal(gone.aborted, true);
  assert.equal(told, 1);

  const answered = response();
  const kept = new ClientGone(answered as unknown as Response);
  kept.addEventListener('abort', () => (told += 1));
  answered.writableEnded = true;
  answered.emit('close');
  assert.equal(kept.aborted, false);
  assert.equal(told, 1);

  const removed = response();
  const quiet = new ClientGone(removed as unknown as Response);
  const listener = (): void => void (told += 1);
  quiet.addEventListener('abort', listener);
  quiet.removeEventListener('abort', listener);
  removed.emit('close');
  assert.equal(quiet.aborted, true);
  assert.equal(told, 1, 'a removed listener is not told');
});

test("when a forwarded long-poll's client leaves, then the service in process sees its response close and the call fails", async () => {
  let closedEarly = 0;
  const service = (_req: IncomingMessage, res: ServerResponse): void => {
    res.on('close', () => {
      if (!res.writableEnded) closedEarly += 1;
    });
  };
  const transport = new InProcessTransport({ realtime: service });
  const client = response();
  const signal = new ClientGone(client as unknown as Response);
  const call = transport.send('realtime', { method: 'GET', path: '/api/v4/events?cursor=c&wait=30', headers: {}, signal });
  await new Promise((resolve) => setImmediate(resolve));
  client.emit('close');
  await assert.rejects(call);
  for (let i = 0; i < 100 && closedEarly === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(closedEarly, 1);
});
