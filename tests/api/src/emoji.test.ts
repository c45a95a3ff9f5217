import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { givenAdminWorld } from './support/admin-world';
import { patchConfig, type AdminSession } from './support/fixtures';
import { eventually } from './support/eventually';
import { assertAppError, assertJson, raw } from './support/http';
import { outsider, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

describe('custom emoji', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let alice: Actor;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    alice = await outsider(target.url, admin, 'em');
  });
  after(async () => {
    await target?.stop();
  });

  it('when custom emoji are listed, then an array (no custom emoji exist), with paging and sort checked', async () => {
    const list = await raw(target.url, 'GET', '/api/v4/emoji?page=0&per_page=50&sort=name', { token: alice.token });
    assertJson(list, 200);
    assert.deepEqual(list.json, []);
    assert.deepEqual(await alice.client.getCustomEmojis(), []);
    assertAppError(await raw(target.url, 'GET', '/api/v4/emoji?sort=create_at', { token: alice.token }), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await raw(target.url, 'GET', '/api/v4/emoji'), 401, 'api.context.session_expired.app_error');
  });

  it('when one emoji is asked for by name or id, then 404; a bad name or id is 400', async () => {
    assertAppError(await raw(target.url, 'GET', '/api/v4/emoji/name/partyparrot', { token: alice.token }), 404, 'app.emoji.get_by_name.no_result');
    assertAppError(await raw(target.url, 'GET', `/api/v4/emoji/${'e'.repeat(26)}`, { token: alice.token }), 404, 'app.emoji.get.no_result');
    assertAppError(await raw(target.url, 'GET', '/api/v4/emoji/name/%24where', { token: alice.token }), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await raw(target.url, 'GET', '/api/v4/emoji/not-an-id', { token: alice.token }), 400, 'api.context.invalid_url_param.app_error');
  });

  it('when EnableCustomEmoji is off, then 501 api.emoji.disabled.app_error, and the client config says so', async () => {
    await patchConfig(admin.client, { ServiceSettings: { EnableCustomEmoji: false } });
    try {
      await eventually('emoji disabled', async () => ((await raw(target.url, 'GET', '/api/v4/emoji', { token: alice.token })).status === 501 ? true : undefined));
      assertAppError(await raw(target.url, 'GET', '/api/v4/emoji', { token: alice.token }), 501, 'api.emoji.disabled.app_error');
      assertAppError(await raw(target.url, 'GET', '/api/v4/emoji/name/x', { token: alice.token }), 501, 'api.emoji.disabled.app_error');
      assert.equal((await raw(target.url, 'GET', '/api/v4/config/client?format=old')).json.EnableCustomEmoji, 'false');
    } finally {
      await patchConfig(admin.client, { ServiceSettings: { EnableCustomEmoji: true } });
    }
    await eventually('emoji enabled again', async () => ((await raw(target.url, 'GET', '/api/v4/emoji', { token: alice.token })).status === 200 ? true : undefined));
  });
});
