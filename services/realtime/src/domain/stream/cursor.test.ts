import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { keySet } from '@switchyard/http-kit';
import { CursorCodec } from './cursor';

const position = { time: 1_764_000_000_000, offsets: [[0, 5, 300_000], [7], [], [2 ** 40]] };

describe('event cursors', () => {
  const codec = new CursorCodec(keySet('primary-secret-of-at-least-32-chars!!'));

  it('when a cursor is made for a user, then it decodes to the same position for that user only', () => {
    const cursor = codec.encode(position, 'alice');
    assert.deepEqual(codec.decode(cursor, 'alice'), { ok: true, position });
    assert.deepEqual(codec.decode(cursor, 'bob'), { ok: false });
  });

  it('when a cursor is changed, truncated, forged or not a string, then it is invalid', () => {
    const cursor = codec.encode(position, 'alice');
    const [data = '', tag = '', user = ''] = cursor.split('.');
    const other = codec.encode({ ...position, offsets: [[0, 6, 300_000], [7], [], [2 ** 40]] }, 'alice');
    const bad = [
      cursor.slice(0, -1),
      cursor.slice(0, cursor.length - user.length - 1),
      `${other.split('.')[0]}.${tag}.${user}`,
      `${data}x.${tag}.${user}`,
      `${data}.${tag}.${user}.x`,
      '',
      'a.b.c',
      `${cursor}${'A'.repeat(5000)}`,
    ];
    for (const c of bad) assert.deepEqual(codec.decode(c, 'alice'), { ok: false }, c);
    for (const c of [undefined, null, 42, {}, ['x']]) assert.deepEqual(codec.decode(c, 'alice'), { ok: false });
    assert.deepEqual(new CursorCodec(keySet('another-secret-of-at-least-32-chars!')).decode(cursor, 'alice'), { ok: false });
  });

  it('when the secret is rotated, then a cursor made with the previous one is still accepted', () => {
    const old = new CursorCodec(keySet('previous-secret-of-at-least-32-chars')).encode(position, 'alice');
    const rotated = new CursorCodec(keySet('new-secret-of-at-least-32-characters', 'previous-secret-of-at-least-32-chars'));
    assert.equal(rotated.decode(old, 'alice').ok, true);
  });

  it('the head and user tag put together are the whole cursor', () => {
    assert.equal(`${codec.head(position)}${codec.userTag('alice')}`, codec.encode(position, 'alice'));
  });

  it('when a live event\'s head is made from the stream\'s offsets and its record, then it is the head of that position (the offsets unchanged)', () => {
    const offsets = [[0, 5, 300_000], [7], [], [2 ** 40]];
    const head = codec.headAt(position.time, offsets, 0, 1, 9);
    assert.equal(head, codec.head({ time: position.time, offsets: [[0, 9, 300_000], [7], [], [2 ** 40]] }));
    assert.equal(codec.headAt(position.time, offsets, 0, 2, 9), codec.head(position), 'never below the stream\'s own offset');
    assert.deepEqual(offsets, position.offsets);
    for (const [t, p] of [[0, 1], [3, 0], [-1, -1]] as const) {
      const prefix = Buffer.from(', "cursor": "', 'latin1');
      assert.equal(codec.headBytes(prefix, position.time, offsets, t, p, 9).toString('latin1'), `, "cursor": "${codec.headAt(position.time, offsets, t, p, 9)}`, `topic ${t} partition ${p}`);
    }
    for (let n = 0; n < 40; n += 1) {
      const many = { time: n, offsets: [Array.from({ length: n }, (_, k) => k * 1000 + n)] };
      assert.equal(codec.headBytes(Buffer.alloc(0), many.time, many.offsets).toString('latin1'), codec.head(many), `${n} partitions`);
    }
  });

  it('when a position is tagged, then the tag is SHA-256 of the key derived from the secret and the position\'s bytes, truncated to 12 bytes', () => {
    const [data = '', tag = ''] = codec.encode(position, 'alice').split('.');
    const key = createHmac('sha256', 'primary-secret-of-at-least-32-chars!!').update('switchyard event cursor position tag v2').digest();
    assert.equal(tag, createHash('sha256').update(key).update(Buffer.from(data, 'base64url')).digest().subarray(0, 12).toString('base64url'));
  });

  it('when a cursor of version 1 (HMAC of its text) is given back, then it is still accepted; its text changed, not', () => {
    const secret = 'primary-secret-of-at-least-32-chars!!';
    // Version 1, time, 1 topic of 1 partition at offset 5.
    const data = Buffer.from([1, 10, 1, 1, 5]).toString('base64url');
    const mac = (label: string, text: string): string => createHmac('sha256', secret).update(label).update(text).digest().subarray(0, 12).toString('base64url');
    assert.deepEqual(codec.decode(`${data}.${mac('pos', data)}.${mac('user', 'alice')}`, 'alice'), { ok: true, position: { time: 10, offsets: [[5]] } });
    assert.deepEqual(codec.decode(`${data}.${mac('pos', data)}.${mac('user', 'alice')}`, 'bob'), { ok: false });
    const other = Buffer.from([1, 10, 1, 1, 6]).toString('base64url');
    assert.deepEqual(codec.decode(`${other}.${mac('pos', data)}.${mac('user', 'alice')}`, 'alice'), { ok: false });
  });

  it('when a character of the position is changed so that it decodes to the same bytes, then the cursor is invalid (one text per cursor)', () => {
    const cursor = codec.encode({ time: 1, offsets: [[1]] }, 'alice');
    const [data = '', tag = '', user = ''] = cursor.split('.');
    // The last character of an unpadded base64url text carries unused low bits: another one with the same high bits decodes alike.
    const last = data[data.length - 1] as string;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const twin = [...alphabet].find((c) => c !== last && Buffer.from(`${data.slice(0, -1)}${c}`, 'base64url').equals(Buffer.from(data, 'base64url')));
    assert.ok(twin, 'a twin text exists for this length');
    assert.deepEqual(codec.decode(`${data.slice(0, -1)}${twin}.${tag}.${user}`, 'alice'), { ok: false });
    assert.equal(codec.decode(cursor, 'alice').ok, true);
  });
});
