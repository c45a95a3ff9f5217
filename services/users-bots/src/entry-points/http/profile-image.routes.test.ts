import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { PictureUploadLimits } from '@switchyard/contracts';
import { adminHarness, type Caller, type HttpHarness } from '../../test-support/http-harness';
import { imageForm, multipart } from '../../test-support/multipart';
import { anImage, aPngDeclaring } from '../../test-support/pictures';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

describe('profile images', () => {
  let h: HttpHarness;
  let admin: Caller;
  before(async () => {
    ({ h, admin } = await adminHarness());
  });
  after(async () => h.stop());

  const upload = (as: Caller, userId: string, form: { body: Buffer; contentType: string }) =>
    h.request('POST', `/api/v4/users/${userId}/image`, { as, raw: form.body, headers: { 'content-type': form.contentType } });
  const image = (as: Caller, userId: string, suffix = '') => h.request('GET', `/api/v4/users/${userId}/image${suffix}`, { as });

  it('when nothing was uploaded, then GET is the generated default: a 128×128 PNG, the same on every call, without an ETag', async () => {
    const u = await h.user();
    const first = await image(u, u.id);
    assert.equal(first.statusCode, 200);
    assert.equal(first.headers['content-type'], 'image/png');
    assert.equal(first.headers.etag, undefined);
    assert.equal(first.headers['cache-control'], 'max-age=300, private');
    const bytes = first.rawPayload;
    assert.deepEqual(bytes.subarray(0, 4), PNG_MAGIC);
    const meta = await sharp(bytes).metadata();
    assert.deepEqual([meta.width, meta.height], [128, 128]);
    assert.equal(Buffer.compare((await image(admin, u.id)).rawPayload, bytes), 0);
    assert.equal(Buffer.compare((await image(u, u.id, '/default')).rawPayload, bytes), 0);
  });

  it('when two users start with different letters, then their defaults differ', async () => {
    const a = await h.user({ username: `alpha${Date.now()}` });
    const b = await h.user({ username: `bravo${Date.now()}` });
    assert.notEqual(Buffer.compare((await image(a, a.id)).rawPayload, (await image(a, b.id)).rawPayload), 0);
  });

  for (const format of ['png', 'jpeg', 'gif'] as const) {
    it(`when a ${format} is uploaded, then it is stored as a 128×128 PNG and last_picture_update is set`, async () => {
      const u = await h.user();
      h.clock.advance(1_000);
      const setAt = h.clock.now();
      const res = await upload(u, u.id, imageForm(await anImage(format, 640, 480), `me.${format}`, `image/${format}`));
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { status: 'OK' });
      const got = await image(u, u.id);
      assert.equal(got.headers['content-type'], 'image/png');
      assert.equal(got.headers.etag, String(setAt));
      assert.equal(got.headers['cache-control'], 'max-age=86400, private');
      const meta = await sharp(got.rawPayload).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ['png', 128, 128]);
      assert.equal((await h.request('GET', '/api/v4/users/me', { as: u })).json().last_picture_update, setAt);
      assert.equal((await h.request('GET', `/api/v4/users/${u.id}/image`, { as: u, headers: { 'if-none-match': String(setAt) } })).statusCode, 304);
      assert.notEqual(Buffer.compare(got.rawPayload, (await image(u, u.id, '/default')).rawPayload), 0, '/default stays the generated one');
    });
  }

  it('when the upload is not a PNG, JPEG or GIF, then 400 decode_config and nothing changes', async () => {
    const u = await h.user();
    for (const data of ['<svg xmlns="http://www.w3.org/2000/svg"/>', 'plain text', Buffer.from('RIFF0000WEBPVP8 ')]) {
      const res = await upload(u, u.id, imageForm(data, 'x.png', 'image/png'));
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().id, 'api.user.upload_profile_user.decode_config.app_error');
    }
    assert.equal((await h.request('GET', '/api/v4/users/me', { as: u })).json().last_picture_update, undefined);
  });

  it('when a PNG header declares a huge image (a decompression bomb), then 400 too_large before any pixel is decoded', async () => {
    const u = await h.user();
    const res = await upload(u, u.id, imageForm(aPngDeclaring(50_000, 50_000), 'bomb.png', 'image/png'));
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().id, 'api.user.upload_profile_user.too_large.app_error');
  });

  it('when the bytes start like a PNG but do not decode, then 400 and never 500', async () => {
    const u = await h.user();
    const good = await anImage('png', 64, 64);
    const res = await upload(u, u.id, imageForm(Buffer.concat([good.subarray(0, 40), Buffer.alloc(200, 7)]), 'broken.png'));
    assert.equal(res.statusCode, 400);
    assert.match(res.json().id, /^api\.user\.upload_profile_user\.(decode|decode_config)\.app_error$/);
  });

  it('when the body is over the upload limit, then 413 too_large; no image part is 400 no_file; not multipart is 400 parse', async () => {
    const u = await h.user();
    const big = await upload(u, u.id, imageForm(Buffer.alloc(PictureUploadLimits.profileImageBytes + 1), 'big.png'));
    assert.equal(big.statusCode, 413);
    assert.equal(big.json().id, 'api.user.upload_profile_user.too_large.app_error');
    const none = await upload(u, u.id, multipart([{ name: 'file', data: await anImage('png'), filename: 'a.png' }]));
    assert.equal(none.statusCode, 400);
    assert.equal(none.json().id, 'api.user.upload_profile_user.no_file.app_error');
    const text = await upload(u, u.id, multipart([{ name: 'image', data: 'just a field' }]));
    assert.equal(text.statusCode, 400);
    assert.equal(text.json().id, 'api.user.upload_profile_user.no_file.app_error');
    const json = await h.request('POST', `/api/v4/users/${u.id}/image`, { as: u, body: {} });
    assert.equal(json.statusCode, 400);
    assert.equal(json.json().id, 'api.user.upload_profile_user.parse.app_error');
  });

  it("when a user sets or resets another user's picture, then 403 edit_other_users; an admin may", async () => {
    const [a, b] = [await h.user(), await h.user()];
    const png = await anImage('png');
    const res = await upload(a, b.id, imageForm(png, 'a.png'));
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().id, 'api.context.permissions.app_error');
    assert.equal((await h.request('DELETE', `/api/v4/users/${b.id}/image`, { as: a })).statusCode, 403);
    assert.equal((await upload(admin, b.id, imageForm(png, 'a.png'))).statusCode, 200);
    assert.ok((await h.request('GET', `/api/v4/users/${b.id}`, { as: admin })).json().last_picture_update > 0);
  });

  it('when the picture is reset, then GET is the default again and last_picture_update is gone', async () => {
    const u = await h.user();
    const before = (await image(u, u.id)).rawPayload;
    assert.equal((await upload(u, u.id, imageForm(await anImage('jpeg'), 'a.jpg'))).statusCode, 200);
    assert.notEqual(Buffer.compare((await image(u, u.id)).rawPayload, before), 0);
    const reset = await h.request('DELETE', `/api/v4/users/${u.id}/image`, { as: u });
    assert.equal(reset.statusCode, 200);
    assert.equal(Buffer.compare((await image(u, u.id)).rawPayload, before), 0);
    assert.equal((await h.request('GET', '/api/v4/users/me', { as: u })).json().last_picture_update, undefined);
  });

  it('when the user is unknown or the caller may not view members, then 404 or 403 as the reference', async () => {
    const missing = await image(admin, 'a'.repeat(26));
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().id, 'app.user.missing_account.const');
    const u = await h.user();
    const guest: Caller = { id: 'g'.repeat(26), roles: 'system_guest' };
    const hidden = await image(guest, u.id);
    assert.equal(hidden.statusCode, 403);
    const upl = await upload(admin, 'b'.repeat(26), imageForm(await anImage('png'), 'a.png'));
    assert.equal(upl.statusCode, 400);
    assert.equal(upl.json().id, 'api.context.invalid_url_param.app_error');
  });

  it("when a bot has an icon, then the bot's picture is that icon (SVG, sandboxed)", async () => {
    await h.patchConfig({ ServiceSettings: { EnableBotAccountCreation: true } });
    const bot = (await h.request('POST', '/api/v4/bots', { as: admin, body: { username: `picbot${Date.now() % 100000}` } })).json();
    assert.equal((await image(admin, bot.user_id)).headers['content-type'], 'image/png');
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>';
    const form = imageForm(svg, 'i.svg');
    await h.request('POST', `/api/v4/bots/${bot.user_id}/icon`, { as: admin, raw: form.body, headers: { 'content-type': form.contentType } });
    const pic = await image(admin, bot.user_id);
    assert.equal(pic.headers['content-type'], 'image/svg+xml');
    assert.match(String(pic.headers['content-security-policy']), /sandbox/);
    assert.match(pic.body, /<rect/);
  });
});
