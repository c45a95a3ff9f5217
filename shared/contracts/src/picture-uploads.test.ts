import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BOT_ICON_UPLOAD, EMOJI_UPLOAD, PROFILE_IMAGE_UPLOAD, pictureUploadRoute } from './picture-uploads';

describe('pictureUploadRoute', () => {
  it('when a profile image or bot icon is posted, then its own limit and 413 error apply', () => {
    assert.equal(pictureUploadRoute('POST', '/api/v4/users/me/image'), PROFILE_IMAGE_UPLOAD);
    assert.equal(pictureUploadRoute('POST', '/api/v4/bots/abc/icon'), BOT_ICON_UPLOAD);
    assert.equal(BOT_ICON_UPLOAD.tooLarge.id, 'api.bot.set_bot_icon_image.too_large.app_error');
    assert.ok(PROFILE_IMAGE_UPLOAD.limit > BOT_ICON_UPLOAD.limit);
    assert.equal(pictureUploadRoute('POST', '/api/v4/emoji'), EMOJI_UPLOAD);
    assert.equal(EMOJI_UPLOAD.limit, 512 * 1024);
    assert.equal(EMOJI_UPLOAD.tooLarge.id, 'api.emoji.create.too_large.app_error');
  });

  it('when the method, the depth or the route differs, then it is no picture upload', () => {
    assert.equal(pictureUploadRoute('GET', '/api/v4/users/me/image'), undefined);
    assert.equal(pictureUploadRoute('PUT', '/api/v4/bots/abc/icon'), undefined);
    assert.equal(pictureUploadRoute('POST', '/api/v4/users/me/image/default'), undefined);
    assert.equal(pictureUploadRoute('POST', '/api/v4/users/a/b/image'), undefined);
    assert.equal(pictureUploadRoute('POST', '/api/v4/posts'), undefined);
    assert.equal(pictureUploadRoute('POST', '/api/v4/emoji/search'), undefined);
    assert.equal(pictureUploadRoute('GET', '/api/v4/emoji'), undefined);
  });
});
