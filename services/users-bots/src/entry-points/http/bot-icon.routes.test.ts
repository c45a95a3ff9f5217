import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PictureUploadLimits } from '@switchyard/contracts';
import { assertError } from '../../test-support/assert-error';
import { adminHarness, type Caller, type HttpHarness } from '../../test-support/http-harness';
import { imageForm, multipart } from '../../test-support/multipart';
import { anImage, HOSTILE_SVG } from '../../test-support/pictures';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><circle cx="2" cy="2" r="2" fill="#ff0000"/></svg>';

describe('bot icons', () => {
  let h: HttpHarness;
  let admin: Caller;
  before(async () => {
    ({ h, admin } = await adminHarness({ EnableBotAccountCreation: true }));
  });
  after(async () => h.stop());

  let n = 0;
  const aBot = async (owner: Caller = admin): Promise<string> => {
    n += 1;
    const res = await h.request('POST', '/api/v4/bots', { as: owner, body: { username: `iconbot${n}` } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().user_id as string;
  };
  const upload = (as: Caller, botId: string, form: { body: Buffer; contentType: string }) =>
    h.request('POST', `/api/v4/bots/${botId}/icon`, { as, raw: form.body, headers: { 'content-type': form.contentType } });

  it('when an SVG icon is uploaded, then GET serves it as image/svg+xml under a sandboxing CSP, and the bot shows last_icon_update', async () => {
    const botId = await aBot();
    h.clock.advance(1_000);
    const setAt = h.clock.now();
    const res = await upload(admin, botId, imageForm(SVG, 'icon.svg', 'image/svg+xml'));
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { status: 'OK' });
    const icon = await h.request('GET', `/api/v4/bots/${botId}/icon`, { as: admin });
    assert.equal(icon.statusCode, 200);
    assert.equal(icon.headers['content-type'], 'image/svg+xml');
    assert.match(String(icon.headers['content-security-policy']), /sandbox/);
    assert.match(String(icon.headers['content-security-policy']), /default-src 'none'/);
    assert.equal(icon.headers['x-content-type-options'], 'nosniff');
    assert.match(icon.body, /<circle[^>]*fill="#ff0000"/);
    assert.equal((await h.request('GET', `/api/v4/bots/${botId}`, { as: admin })).json().last_icon_update, setAt);
    assert.equal((await h.request('GET', `/api/v4/users/${botId}`, { as: admin })).json().bot_last_icon_update, setAt);
    const again = await h.request('GET', `/api/v4/bots/${botId}/icon`, { as: admin, headers: { 'if-none-match': String(icon.headers.etag) } });
    assert.equal(again.statusCode, 304);
  });

  it('when the SVG hides script, handlers, foreignObject and outside references, then none of them is ever served', async () => {
    const botId = await aBot();
    assert.equal((await upload(admin, botId, imageForm(HOSTILE_SVG, 'evil.svg'))).statusCode, 200);
    const served = (await h.request('GET', `/api/v4/bots/${botId}/icon`, { as: admin })).body;
    for (const banned of [/<script/i, /onload/i, /onclick/i, /onerror/i, /foreignObject/i, /javascript:/i, /https?:\/\/(?!www\.w3\.org\/)/i, /evil|tracker/i, /@import/i, /<style/i]) {
      assert.doesNotMatch(served, banned, `${banned} survived: ${served}`);
    }
    assert.match(served, /fill="#00ff00"/, 'the harmless shapes stay');
    assert.match(served, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });

  it('when the upload is not an SVG document, then 400 api.bot.set_bot_icon_image.parse.app_error and nothing is stored', async () => {
    const botId = await aBot();
    const cases: [string, Buffer | string][] = [
      ['png', await anImage('png')],
      ['html', '<html><body><script>alert(1)</script></body></html>'],
      ['broken xml', '<svg xmlns="http://www.w3.org/2000/svg"><circle onload=alert(1)></svg>'],
      ['doctype', '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>'],
      ['empty', ''],
    ];
    for (const [label, data] of cases) {
      const res = await upload(admin, botId, imageForm(data, 'x.svg'));
      assert.equal(res.statusCode, 400, label);
      assert.equal(res.json().id, 'api.bot.set_bot_icon_image.parse.app_error', label);
    }
    const icon = await h.request('GET', `/api/v4/bots/${botId}/icon`, { as: admin });
    assert.equal(icon.statusCode, 404);
    assert.equal(icon.json().id, 'api.bot.get_bot_icon_image.read.app_error');
  });

  it('when the form has no image part or is not multipart, then 400 no_file or parse', async () => {
    const botId = await aBot();
    const noFile = await upload(admin, botId, multipart([{ name: 'picture', data: SVG, filename: 'a.svg' }]));
    assert.equal(noFile.statusCode, 400);
    assert.equal(noFile.json().id, 'api.bot.set_bot_icon_image.no_file.app_error');
    const json = await h.request('POST', `/api/v4/bots/${botId}/icon`, { as: admin, body: { image: SVG } });
    assert.equal(json.statusCode, 400);
    assert.equal(json.json().id, 'api.bot.set_bot_icon_image.parse.app_error');
  });

  it('when the upload is over the icon limit, then 413 api.bot.set_bot_icon_image.too_large.app_error', async () => {
    const botId = await aBot();
    const big = `<svg xmlns="http://www.w3.org/2000/svg"><desc>${'x'.repeat(PictureUploadLimits.botIconBytes)}</desc></svg>`;
    const res = await upload(admin, botId, imageForm(big, 'big.svg'));
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().id, 'api.bot.set_bot_icon_image.too_large.app_error');
  });

  it('when someone else sets or deletes the icon, then manage_others_bots decides (403), and a reader without read rights sees 404', async () => {
    const botId = await aBot();
    const user = await h.user();
    const res = await upload(user, botId, imageForm(SVG, 'a.svg'));
    assert.equal(res.statusCode, 404, 'a plain user may not even read the admin bot');
    assert.equal(res.json().id, 'store.sql_bot.get.missing.app_error');
    const reader: Caller = { id: user.id, roles: 'system_user system_read_only_admin' };
    const forbidden = await upload(reader, botId, imageForm(SVG, 'a.svg'));
    assert.ok([403, 404].includes(forbidden.statusCode));
    const del = await h.request('DELETE', `/api/v4/bots/${botId}/icon`, { as: user });
    assert.equal(del.statusCode, 404);
    const unknown = await upload(admin, 'x'.repeat(26), imageForm(SVG, 'a.svg'));
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().id, 'store.sql_bot.get.missing.app_error');
  });

  it('when the icon is deleted, then GET is 404 again, last_icon_update is cleared and last_picture_update moves', async () => {
    const botId = await aBot();
    assert.equal((await upload(admin, botId, imageForm(SVG, 'a.svg'))).statusCode, 200);
    h.clock.advance(1_000);
    const deletedAt = h.clock.now();
    const del = await h.request('DELETE', `/api/v4/bots/${botId}/icon`, { as: admin });
    assert.equal(del.statusCode, 200);
    assertError(await h.request('GET', `/api/v4/bots/${botId}/icon`, { as: admin }), 404, 'api.bot.get_bot_icon_image.read.app_error');
    const bot = (await h.request('GET', `/api/v4/bots/${botId}`, { as: admin })).json();
    assert.equal(bot.last_icon_update, undefined);
    assert.equal((await h.request('GET', `/api/v4/users/${botId}`, { as: admin })).json().last_picture_update, deletedAt);
  });

  it('when the bot id is not an id, then 400 invalid_url_param', async () => {
    const res = await h.request('GET', '/api/v4/bots/nope/icon', { as: admin });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().id, 'api.context.invalid_url_param.app_error');
  });
});
