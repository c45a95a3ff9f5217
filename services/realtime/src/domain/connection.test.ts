import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecordingSocket } from '../test-support/fakes';
import { Connection } from './connection';
import { broadcast, eventPrefix } from './ws-event';

const prefix = (n: number): Buffer => eventPrefix({ event: 'posted', data: { n }, broadcast: broadcast({ channel_id: 'c' }) });

describe('Connection', () => {
  it('when events are written, then seq starts at 0 and grows by one; replies carry no seq', () => {
    const socket = new RecordingSocket();
    const conn = new Connection('id', { sendQueue: 8, replayBuffer: 4 }, 0);
    conn.attach(socket, 0);
    conn.write(prefix(1));
    conn.reply('{"status":"OK","seq_reply":1}');
    conn.write(prefix(2));
    const frames = socket.frames();
    assert.deepEqual(frames.map((f) => f.seq), [0, undefined, 1]);
    assert.deepEqual(frames[2]?.data, { n: 2 });
  });

  it('when the send queue is full, then the socket is cut off (slow consumer) and the connection goes away', () => {
    const socket = new RecordingSocket(false);
    const conn = new Connection('id', { sendQueue: 3, replayBuffer: 4 }, 0);
    conn.attach(socket, 0);
    for (let i = 0; i < 3; i += 1) conn.write(prefix(i));
    assert.equal(socket.closedWith, undefined);
    conn.write(prefix(3));
    assert.equal(socket.closedWith, 1013);
    assert.equal(socket.closeReason, 'slow consumer: send queue full');
    assert.equal(conn.connected, false);
    assert.equal(conn.overflowed, true);
    assert.equal(socket.sent.length, 3);
  });

  it('when frames are flushed, then the queue drains and the socket stays', () => {
    const socket = new RecordingSocket(false);
    const conn = new Connection('id', { sendQueue: 3, replayBuffer: 4 }, 0);
    conn.attach(socket, 0);
    for (let i = 0; i < 10; i += 1) {
      conn.write(prefix(i));
      socket.flush();
    }
    assert.equal(socket.terminated, false);
    assert.equal(socket.sent.length, 10);
  });

  it('when the queue is half full, then droppable events (typing) are dropped without using a seq', () => {
    const socket = new RecordingSocket(false);
    const conn = new Connection('id', { sendQueue: 4, replayBuffer: 4 }, 0);
    conn.attach(socket, 0);
    conn.write(prefix(0));
    conn.write(prefix(1));
    assert.equal(conn.write(prefix(2), true), false);
    conn.write(prefix(3));
    assert.deepEqual(socket.frames().map((f) => f.seq), [0, 1, 2]);
  });

  it('when a client resumes with a sequence still in the log, then the missed events are replayed with their seq', () => {
    const first = new RecordingSocket();
    const conn = new Connection('id', { sendQueue: 8, replayBuffer: 4 }, 0);
    conn.attach(first, 0);
    for (let i = 0; i < 6; i += 1) conn.write(prefix(i));
    conn.detach();
    conn.write(prefix(6));
    conn.write(prefix(7));
    const second = new RecordingSocket();
    conn.attach(second, 0);
    assert.equal(conn.resume(4), true);
    assert.deepEqual(second.frames().map((f) => f.seq), [4, 5, 6, 7]);
    conn.write(prefix(8));
    assert.equal(second.frames().at(-1)?.seq, 8);
  });

  it('when a client resumes, then each replayed event keeps its own cursor (events logged by several connections, with and without one)', () => {
    const head = (n: number): Buffer => Buffer.from(`, "cursor": "h${n}.`, 'latin1');
    const conns = ['a', 'b'].map((id) => {
      const conn = new Connection(id, { sendQueue: 8, replayBuffer: 8 }, 0);
      conn.cursorTail = Buffer.from(`${id}"`, 'latin1');
      conn.attach(new RecordingSocket(), 0);
      return conn;
    });
    // As a hub delivers: each event to every connection in a row (one shared prefix and head per event).
    for (let i = 0; i < 4; i += 1) {
      const p = prefix(i);
      const h = i === 2 ? undefined : head(i);
      for (const conn of conns) conn.write(p, false, h);
    }
    for (const conn of conns) {
      conn.detach();
      const again = new RecordingSocket();
      conn.attach(again, 0);
      assert.equal(conn.resume(0), true);
      const tail = conn.id;
      assert.deepEqual(
        again.sent.map((text) => /"seq": (\d+)(?:, "cursor": "([^"]*)")?}$/.exec(text)?.slice(1)),
        [['0', `h0.${tail}`], ['1', `h1.${tail}`], ['2', undefined], ['3', `h3.${tail}`]],
      );
    }
  });

  it('when the sequence is older than the log or in the future, then the resume is refused', () => {
    const conn = new Connection('id', { sendQueue: 8, replayBuffer: 2 }, 0);
    conn.attach(new RecordingSocket(), 0);
    for (let i = 0; i < 5; i += 1) conn.write(prefix(i));
    conn.detach();
    conn.attach(new RecordingSocket(), 0);
    assert.equal(conn.resume(1), false);
    assert.equal(conn.resume(6), false);
    assert.equal(conn.resume(5), true);
  });

  it('when more events arrive while away than the queue holds, then the connection is lost', () => {
    const conn = new Connection('id', { sendQueue: 2, replayBuffer: 2 }, 0);
    conn.attach(new RecordingSocket(), 0);
    conn.detach();
    conn.write(prefix(0));
    conn.write(prefix(1));
    assert.equal(conn.lost, false);
    conn.write(prefix(2));
    assert.equal(conn.lost, true);
  });
});
