import assert from 'node:assert/strict';
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
});
