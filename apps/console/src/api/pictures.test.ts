import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { botIconUrl, pictureUrl } from './pictures';

describe('picture URLs', () => {
  it('when the picture changes, then its URL changes (the cached copy is not reused)', () => {
    const before = pictureUrl({ id: 'u1' });
    assert.equal(before, '/api/v4/users/u1/image?_=0');
    assert.notEqual(pictureUrl({ id: 'u1', last_picture_update: 5 }), before);
    assert.notEqual(pictureUrl({ id: 'u1', bot_last_icon_update: 7 }), before);
    assert.equal(botIconUrl('b/1', 9), '/api/v4/bots/b%2F1/icon?_=9');
  });
});
