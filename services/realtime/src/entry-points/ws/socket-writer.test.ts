import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { setImmediate as turn } from 'node:timers/promises';
import ws from 'ws';
import { digits } from './frame';
import { SocketWriter, type SocketControl } from './socket-writer';

/** ws' own frame parser (exported at run time, not declared by @types/ws). */
interface FrameReceiver {
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  write(bytes: Buffer): void;
}
const { Receiver } = ws as unknown as { Receiver: new (options: { isServer: boolean; maxPayload: number }) => FrameReceiver };

const control = (open: () => boolean): SocketControl => ({ open, close: () => undefined, terminate: () => undefined });

/** A socket that records each write (one system call in production). */
class Recorder extends Writable {
  public readonly writes: Buffer[] = [];

  public override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.writes.push(chunk);
    callback();
  }
}

/** The text messages `ws`' own client-side parser reads from the bytes. */
function decode(bytes: Buffer): string[] {
  const messages: string[] = [];
  const receiver = new Receiver({ isServer: false, maxPayload: 0 });
  receiver.on('message', (data: Buffer, isBinary: boolean) => {
    assert.equal(isBinary, false);
    messages.push(data.toString('utf8'));
  });
  receiver.on('error', (error: Error) => assert.fail(error));
  receiver.write(bytes);
  return messages;
}

const prefixOf = (size: number): Buffer => Buffer.from(`{"event": "posted", "data": {"post": "${'é'.repeat(Math.floor(size / 4))}${'x'.repeat(size - 2 * Math.floor(size / 4))}"}, "seq": `, 'utf8');

describe('SocketWriter', () => {
  it('when events of every payload size and seq width and a reply are written in one turn, then they go out in one write that ws parses back exactly', async () => {
    const socket = new Recorder();
    const writer = new SocketWriter(0);
    const outbox = writer.outbox(socket as never, control(() => true));
    const expected: string[] = [];
    // Payloads around the 7-bit, 16-bit and 64-bit length boundaries (125/126, 65535/65536).
    const base = prefixOf(0).length;
    const seqs = [0, 9, 10, 99, 100, 123_456_789_012, 9_007_199_254_740_991];
    for (const payload of [100, 125, 126, 127, 65_535, 65_536, 70_000]) {
      for (const seq of seqs) {
        const prefix = prefixOf(Math.max(0, payload - base - digits(seq) - 1));
        outbox.sendEvent(prefix, seq);
        expected.push(`${prefix.toString('utf8')}${seq}}`);
      }
    }
    outbox.send('{"status":"OK","seq_reply":1}');
    assert.equal(outbox.backlog, expected.length + 1, 'waiting frames are in the send queue');
    expected.push('{"status":"OK","seq_reply":1}');
    assert.equal(socket.writes.length, 0, 'nothing before the turn ends');
    await turn();
    assert.equal(socket.writes.length, 1);
    assert.deepEqual(decode(socket.writes[0] as Buffer), expected);
    assert.equal(outbox.backlog, 0, 'written frames leave the send queue once the write completes');
  });

  it('when events keep coming, then flushes are coalesceMs apart; the first after a quiet spell goes out in the same turn', async (t) => {
    // The interval is timed by setTimeout and the writer's clock; both are the test's, so no wall-clock wait decides it.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    let now = 1_000;
    const tick = (ms: number): void => {
      now += ms;
      t.mock.timers.tick(ms);
    };
    const socket = new Recorder();
    const writer = new SocketWriter(60, () => now);
    const outbox = writer.outbox(socket as never, control(() => true));
    const prefix = prefixOf(10);
    outbox.sendEvent(prefix, 0);
    await turn();
    assert.equal(socket.writes.length, 1, 'quiet before: at once');
    assert.deepEqual(decode(socket.writes[0] as Buffer), [`${prefix.toString('utf8')}0}`]);
    tick(10);
    outbox.sendEvent(prefix, 1);
    await turn();
    outbox.sendEvent(prefix, 2);
    await turn();
    assert.equal(socket.writes.length, 1, 'held within the interval');
    tick(49);
    await turn();
    assert.equal(socket.writes.length, 1, 'still held 1 ms before the interval ends');
    tick(1);
    await turn();
    assert.equal(socket.writes.length, 2, 'written when the interval ends');
    assert.deepEqual(decode(socket.writes[1] as Buffer), [`${prefix.toString('utf8')}1}`, `${prefix.toString('utf8')}2}`]);
    tick(60);
    outbox.sendEvent(prefix, 3);
    await turn();
    assert.equal(socket.writes.length, 3, 'quiet again: at once');
    assert.deepEqual(decode(socket.writes[2] as Buffer), [`${prefix.toString('utf8')}3}`]);
  });

  it('when the WebSocket is closing or the outbox is discarded, then nothing is written and nothing stays in the send queue', async () => {
    const socket = new Recorder();
    let open = true;
    const writer = new SocketWriter(0);
    const outbox = writer.outbox(socket as never, control(() => open));
    outbox.sendEvent(prefixOf(5), 0);
    open = false;
    await turn();
    outbox.sendEvent(prefixOf(5), 1);
    outbox.discard();
    await turn();
    assert.equal(socket.writes.length, 0);
    assert.equal(outbox.backlog, 0);
  });

  it('when one TCP peer stops reading and the kernel stops taking its writes, then its frames built in the shared buffer still arrive intact while another socket reuses the buffer', async () => {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as { port: number }).port;
    const pair = async (): Promise<{ socket: Socket; peer: Socket; chunks: Buffer[] }> => {
      const accepted = once(server, 'connection') as Promise<[Socket]>;
      const peer = connect(port, '127.0.0.1');
      const [socket] = await accepted;
      const chunks: Buffer[] = [];
      peer.on('data', (chunk: Buffer) => chunks.push(chunk));
      return { socket, peer, chunks };
    };
    const slow = await pair();
    const fast = await pair();
    slow.peer.pause();
    const writer = new SocketWriter(0);
    const outboxes = [writer.outbox(slow.socket, control(() => true)), writer.outbox(fast.socket, control(() => true))];
    // 300 flushes of one 60 KB frame to each: far more than loopback buffers hold while the slow peer reads nothing.
    const prefix = prefixOf(60_000);
    const expected: string[] = [];
    let pendingSeen = false;
    for (let seq = 0; seq < 300; seq += 1) {
      for (const outbox of outboxes) outbox.sendEvent(prefix, seq);
      expected.push(`${prefix.toString('utf8')}${seq}}`);
      writer.flush();
      pendingSeen ||= slow.socket.writableLength > 0;
      // The fast peer keeps reading, so its writes keep completing at once (in the shared buffer).
      if (fast.socket.writableLength > 0) await once(fast.socket, 'drain');
    }
    assert.ok(pendingSeen, 'some writes to the slow peer were left pending (the case under test)');
    slow.peer.resume();
    for (const { socket } of [slow, fast]) socket.end();
    await Promise.all([once(slow.peer, 'end'), once(fast.peer, 'end')]);
    server.close();
    for (const { peer, chunks } of [slow, fast]) {
      peer.destroy();
      const messages = decode(Buffer.concat(chunks));
      assert.equal(messages.length, expected.length);
      for (let i = 0; i < expected.length; i += 1) assert.equal(messages[i], expected[i], `frame ${i}`);
    }
  });
});
