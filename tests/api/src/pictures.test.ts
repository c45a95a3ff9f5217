import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createUserSession, patchConfig, uniqueName, type AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, raw, type RawResponse } from './support/http';
import { HOSTILE_SVG, imageForm, PICTURES, PLAIN_SVG, pngBomb } from './support/pictures';
import type { Target } from './support/target';

const PNG_MAGIC = '89504e47';

describe('pictures: profile images and bot icons', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    await patchConfig(admin.client, { ServiceSettings: { EnableBotAccountCreation: true } });
  });
  after(async () => {
    await target?.stop();
  });

  /** One request whose body is a FormData or nothing; the answer with its bytes. */
  const send = async (method: string, path: string, token: string, form?: FormData): Promise<RawResponse & { bytes: Buffer }> => {
    const response = await fetch(`${target.url}${path}`, { method, headers: { Authorization: `Bearer ${token}` }, body: form, signal: AbortSignal.timeout(20_000) });
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    const json = (response.headers.get('content-type') ?? '').startsWith('application/json') ? JSON.parse(text) : undefined;
    return { status: response.status, headers: response.headers, text, json, cookies: [], bytes };
  };
  const newBot = async (): Promise<string> => (await admin.client.createBot({ username: uniqueName('pic') })).user_id;

  describe('profile images', () => {
    it('when a user has not uploaded one, then the picture URL of @mattermost/client answers a generated PNG, and /image/default the same', async () => {
      const user = await createUserSession(target.url, admin.client, 'pic');
      const url = user.client.getProfilePictureUrl(user.user.id, 0);
      const response = await fetch(url, { headers: { Authorization: `Bearer ${user.token}` } });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'image/png');
      const bytes = Buffer.from(await response.arrayBuffer());
      assert.equal(bytes.subarray(0, 4).toString('hex'), PNG_MAGIC);
      const fallback = await send('GET', `/api/v4/users/${user.user.id}/image/default`, user.token);
      assert.equal(Buffer.compare(fallback.bytes, bytes), 0);
    });

    for (const format of ['png', 'jpeg', 'gif'] as const) {
      it(`when a ${format} is uploaded with uploadProfileImage, then GET answers a PNG and last_picture_update is set`, async () => {
        const user = await createUserSession(target.url, admin.client, 'pic');
        const before = await send('GET', `/api/v4/users/${user.user.id}/image`, user.token);
        await user.client.uploadProfileImage(user.user.id, new Blob([new Uint8Array(PICTURES[format])], { type: `image/${format}` }) as File);
        const me = await user.client.getMe();
        assert.ok((me.last_picture_update ?? 0) > 0);
        const after = await send('GET', `/api/v4/users/${user.user.id}/image`, user.token);
        assert.equal(after.status, 200);
        assert.equal(after.headers.get('content-type'), 'image/png');
        assert.equal(after.bytes.subarray(0, 4).toString('hex'), PNG_MAGIC);
        assert.notEqual(Buffer.compare(after.bytes, before.bytes), 0);
        assert.equal(after.headers.get('etag'), String(me.last_picture_update));
      });
    }

    it('when the upload is not a picture, then 400 decode_config; a decompression bomb is 400 too_large; never 500', async () => {
      const user = await createUserSession(target.url, admin.client, 'pic');
      const path = `/api/v4/users/${user.user.id}/image`;
      assertAppError(await send('POST', path, user.token, imageForm(PLAIN_SVG, 'a.svg', 'image/svg+xml')), 400, 'api.user.upload_profile_user.decode_config.app_error');
      assertAppError(await send('POST', path, user.token, imageForm('hello', 'a.png', 'image/png')), 400, 'api.user.upload_profile_user.decode_config.app_error');
      assertAppError(await send('POST', path, user.token, imageForm(pngBomb(40_000, 40_000), 'bomb.png', 'image/png')), 400, 'api.user.upload_profile_user.too_large.app_error');
      const noImage = new FormData();
      noImage.append('file', new Blob([new Uint8Array(PICTURES.png)], { type: 'image/png' }), 'a.png');
      assertAppError(await send('POST', path, user.token, noImage), 400, 'api.user.upload_profile_user.no_file.app_error');
    });

    it('when the upload is over 10 MiB, then 413 api.user.upload_profile_user.too_large.app_error', async () => {
      const user = await createUserSession(target.url, admin.client, 'pic');
      const big = Buffer.concat([PICTURES.png, Buffer.alloc(10 * 1024 * 1024)]);
      assertAppError(await send('POST', `/api/v4/users/${user.user.id}/image`, user.token, imageForm(big, 'big.png', 'image/png')), 413, 'api.user.upload_profile_user.too_large.app_error');
    });

    it("when a user uploads or resets another user's picture, then 403; an admin may, and DELETE brings the default back", async () => {
      const [a, b] = [await createUserSession(target.url, admin.client, 'pic'), await createUserSession(target.url, admin.client, 'pic')];
      const path = `/api/v4/users/${b.user.id}/image`;
      assertAppError(await send('POST', path, a.token, imageForm(PICTURES.png, 'a.png', 'image/png')), 403, 'api.context.permissions.app_error');
      assertAppError(await send('DELETE', path, a.token), 403, 'api.context.permissions.app_error');
      const original = (await send('GET', path, b.token)).bytes;
      assert.equal((await send('POST', path, admin.token, imageForm(PICTURES.gif, 'a.gif', 'image/gif'))).status, 200);
      assert.notEqual(Buffer.compare((await send('GET', path, a.token)).bytes, original), 0, 'another user sees the new picture');
      await b.client.setDefaultProfileImage(b.user.id);
      assert.equal(Buffer.compare((await send('GET', path, b.token)).bytes, original), 0);
      assert.equal((await b.client.getMe()).last_picture_update ?? 0, 0);
    });

    it('when nobody is signed in, then the picture is 401', async () => {
      assertAppError(await raw(target.url, 'GET', `/api/v4/users/${admin.user.id}/image`), 401, 'api.context.session_expired.app_error');
    });
  });

  describe('bot icons', () => {
    it('when an SVG icon is set, then GET /bots/{id}/icon serves it as image/svg+xml with a sandboxing CSP and nosniff', async () => {
      const botId = await newBot();
      const set = await send('POST', `/api/v4/bots/${botId}/icon`, admin.token, imageForm(PLAIN_SVG, 'icon.svg', 'image/svg+xml'));
      assert.equal(set.status, 200, set.text);
      assert.deepEqual(set.json, { status: 'OK' });
      const icon = await send('GET', `/api/v4/bots/${botId}/icon`, admin.token);
      assert.equal(icon.status, 200);
      assert.equal(icon.headers.get('content-type'), 'image/svg+xml');
      assert.match(icon.headers.get('content-security-policy') ?? '', /sandbox/);
      assert.equal(icon.headers.get('x-content-type-options'), 'nosniff');
      assert.match(icon.text, /<circle[^>]*fill="#336699"/);
      assert.ok((await send('GET', `/api/v4/bots/${botId}`, admin.token)).json.last_icon_update > 0);
      const picture = await send('GET', `/api/v4/users/${botId}/image`, admin.token);
      assert.equal(picture.headers.get('content-type'), 'image/svg+xml', "the bot's picture is its icon");
    });

    it('when the SVG carries script, handlers, foreignObject or outside references, then what is served has none of them', async () => {
      const botId = await newBot();
      assert.equal((await send('POST', `/api/v4/bots/${botId}/icon`, admin.token, imageForm(HOSTILE_SVG, 'evil.svg', 'image/svg+xml'))).status, 200);
      const served = (await send('GET', `/api/v4/bots/${botId}/icon`, admin.token)).text;
      for (const banned of [/<script/i, /\bon[a-z]+=/i, /foreignObject/i, /javascript:/i, /127\.0\.0\.9/, /document\.cookie/]) {
        assert.doesNotMatch(served, banned, `${banned} survived: ${served}`);
      }
      assert.match(served, /<rect[^>]*fill="#ff0000"/);
    });

    it('when the icon is not an SVG, then 400 api.bot.set_bot_icon_image.parse.app_error; without one, GET is 404 read.app_error', async () => {
      const botId = await newBot();
      assertAppError(await send('POST', `/api/v4/bots/${botId}/icon`, admin.token, imageForm(PICTURES.png, 'icon.png', 'image/png')), 400, 'api.bot.set_bot_icon_image.parse.app_error');
      assertAppError(await send('GET', `/api/v4/bots/${botId}/icon`, admin.token), 404, 'api.bot.get_bot_icon_image.read.app_error');
      const big = `<svg xmlns="http://www.w3.org/2000/svg"><desc>${'x'.repeat(1024 * 1024)}</desc></svg>`;
      assertAppError(await send('POST', `/api/v4/bots/${botId}/icon`, admin.token, imageForm(big, 'big.svg', 'image/svg+xml')), 413, 'api.bot.set_bot_icon_image.too_large.app_error');
    });

    it("when a user who does not own the bot sets or deletes its icon, then refused; DELETE by the owner removes it", async () => {
      const botId = await newBot();
      const user = await createUserSession(target.url, admin.client, 'pic');
      const refused = await send('POST', `/api/v4/bots/${botId}/icon`, user.token, imageForm(PLAIN_SVG, 'i.svg', 'image/svg+xml'));
      assertAppError(refused, 404, 'store.sql_bot.get.missing.app_error');
      assertAppError(await send('DELETE', `/api/v4/bots/${botId}/icon`, user.token), 404, 'store.sql_bot.get.missing.app_error');
      assert.equal((await send('POST', `/api/v4/bots/${botId}/icon`, admin.token, imageForm(PLAIN_SVG, 'i.svg', 'image/svg+xml'))).status, 200);
      assert.equal((await send('GET', `/api/v4/bots/${botId}/icon`, user.token)).status, 200, 'any member may look at it');
      assert.equal((await send('DELETE', `/api/v4/bots/${botId}/icon`, admin.token)).status, 200);
      assertAppError(await send('GET', `/api/v4/bots/${botId}/icon`, admin.token), 404, 'api.bot.get_bot_icon_image.read.app_error');
      assert.equal((await send('GET', `/api/v4/bots/${botId}`, admin.token)).json.last_icon_update, undefined);
    });
  });
});
