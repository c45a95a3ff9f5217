import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import { assertError } from '../../test-support/assert-error';
import { harness, type Caller, type Harness } from '../../test-support/harness';

describe('outgoing hooks CRUD', () => {
  let h: Harness;
  let teamId: string;
  let admin: Caller;
  let teamAdmin: Caller;
  let member: Caller;
  let openChannel: string;
  let privateChannel: string;

  before(async () => {
    h = await harness();
    teamId = h.world.team('crud');
    admin = { id: h.world.user('admin').id, roles: 'system_admin system_user' };
    teamAdmin = { id: h.world.user('tadmin', { teamId, teamRoles: 'team_user team_admin' }).id, roles: 'system_user' };
    member = { id: h.world.user('member', { teamId }).id, roles: 'system_user' };
    openChannel = h.world.channel(teamId, 'O').id;
    privateChannel = h.world.channel(teamId, 'P').id;
  });
  after(() => h.stop());

  const create = (as: Caller, body: Record<string, unknown>) => h.request('POST', '/api/v4/hooks/outgoing', { as, body: { team_id: teamId, callback_urls: ['http://example.com/cb'], ...body } });

  it('when a team admin creates a hook on an open channel, then 201 with token, signing secret and the reference fields', async () => {
    const res = await create(teamAdmin, { channel_id: openChannel, display_name: 'Mine', content_type: 'application/json' });
    assert.equal(res.statusCode, 201);
    assert.equal(res.headers['content-type'], 'application/json');
    const hook = res.json();
    assert.match(hook.id, /^[a-z0-9]{26}$/);
    assert.match(hook.token, /^[a-z0-9]{26}$/);
    assert.match(hook.signing_secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(hook.signing_secret.slice(6), 'base64').length, 32);
    assert.equal(hook.creator_id, teamAdmin.id);
    assert.deepEqual(hook.trigger_words, []);
    assert.equal(hook.trigger_when, 0);
    assert.equal(hook.disabled_at, 0);
    for (const key of ['create_at', 'update_at', 'delete_at', 'channel_id', 'team_id', 'callback_urls', 'display_name', 'description', 'content_type', 'username', 'icon_url']) assert.ok(key in hook, key);
  });

  it('when a plain team member creates a hook, then 403 permissions', async () => {
    const res = await create(member, { channel_id: openChannel });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().id, 'api.context.permissions.app_error');
  });

  it('when there is no identity, then 401 session_expired', async () => {
    const res = await h.request('GET', '/api/v4/hooks/outgoing');
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().id, 'api.context.session_expired.app_error');
  });

  it('when neither channel nor trigger words are given, then 400 triggers', async () => {
    const res = await create(admin, {});
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().id, 'api.webhook.create_outgoing.triggers.app_error');
  });

  it('when the channel is private, then 403 with the reference quirk id', async () => {
    const res = await create(admin, { channel_id: privateChannel });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().id, 'api.outgoing_webhook.disabled.app_error');
  });

  it('when the channel belongs to another team, then 403 create_outgoing.permissions', async () => {
    const otherTeam = h.world.team('other');
    const res = await create(admin, { channel_id: h.world.channel(otherTeam, 'O').id });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().id, 'api.webhook.create_outgoing.permissions.app_error');
  });

  it('when the channel does not exist, then 404', async () => {
    const res = await create(admin, { channel_id: newId() });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().id, 'app.channel.get.existing.app_error');
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['no callback URL', { trigger_words: ['go'], callback_urls: [] }, 'model.outgoing_hook.is_valid.callback.app_error'],
    ['callback list over 1024', { trigger_words: ['go'], callback_urls: Array.from({ length: 40 }, (_, i) => `http://example.com/${'x'.repeat(20)}${i}`) }, 'model.outgoing_hook.is_valid.callback.app_error'],
    ['a URL without http(s)', { trigger_words: ['go'], callback_urls: ['ftp://example.com'] }, 'model.outgoing_hook.is_valid.url.app_error'],
    ['an empty trigger word', { trigger_words: ['go', ''] }, 'model.outgoing_hook.is_valid.trigger_words.app_error'],
    ['words over 1024', { trigger_words: Array.from({ length: 60 }, (_, i) => `word${'y'.repeat(15)}${i}`) }, 'model.outgoing_hook.is_valid.words.app_error'],
    ['display name over 64', { trigger_words: ['go'], display_name: 'd'.repeat(65) }, 'model.outgoing_hook.is_valid.display_name.app_error'],
    ['description over 500', { trigger_words: ['go'], description: 'd'.repeat(501) }, 'model.outgoing_hook.is_valid.description.app_error'],
    ['content type over 128', { trigger_words: ['go'], content_type: 'c'.repeat(129) }, 'model.outgoing_hook.is_valid.content_type.app_error'],
    ['trigger_when 2 (the content_type id quirk)', { trigger_words: ['go'], trigger_when: 2 }, 'model.outgoing_hook.is_valid.content_type.app_error'],
    ['username over 64', { trigger_words: ['go'], username: 'u'.repeat(65) }, 'model.outgoing_hook.is_valid.username.app_error'],
    ['icon URL over 1024', { trigger_words: ['go'], icon_url: `http://x/${'i'.repeat(1020)}` }, 'model.outgoing_hook.is_valid.icon_url.app_error'],
  ];
  for (const [what, body, id] of invalid) {
    it(`when the hook has ${what}, then 400 ${id}`, async () => {
      const res = await create(admin, body);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().id, id);
    });
  }

  it('when a field has the wrong type, then 400 invalid_body_param, never 500', async () => {
    for (const body of [{ trigger_words: 'go' }, { trigger_when: '1' }, { callback_urls: [{ $gt: '' }] }, { display_name: 5 }]) {
      const res = await create(admin, body);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal(res.json().id, 'api.context.invalid_body_param.app_error');
    }
    const raw = await h.request('POST', '/api/v4/hooks/outgoing', { as: admin, raw: '{"team_id":' });
    assertError(raw, 400, 'api.context.invalid_body_param.app_error');
  });

  it('when two hooks of a channel share a URL and a trigger word, then create is 500 and update is 400 intersect', async () => {
    const channel = h.world.channel(teamId, 'O').id;
    const first = await create(admin, { channel_id: channel, trigger_words: ['a', 'b'], callback_urls: ['http://example.com/x'] });
    assert.equal(first.statusCode, 201);
    const clash = await create(admin, { channel_id: channel, trigger_words: ['b'], callback_urls: ['http://example.com/x'] });
    assert.equal(clash.statusCode, 500);
    assert.equal(clash.json().id, 'api.webhook.create_outgoing.intersect.app_error');
    const second = (await create(admin, { channel_id: channel, trigger_words: ['c'], callback_urls: ['http://example.com/x'] })).json();
    const update = await h.request('PUT', `/api/v4/hooks/outgoing/${second.id}`, { as: admin, body: { ...second, trigger_words: ['a'] } });
    assert.equal(update.statusCode, 400);
    assert.equal(update.json().id, 'api.webhook.update_outgoing.intersect.app_error');
  });

  it('when a hook is read, updated with its token, regenerated and deleted, then each answers as the reference', async () => {
    const hook = (await create(teamAdmin, { trigger_words: ['deploy'], trigger_when: 1 })).json();
    const got = await h.request('GET', `/api/v4/hooks/outgoing/${hook.id}`, { as: teamAdmin });
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), hook);

    const withoutToken = await h.request('PUT', `/api/v4/hooks/outgoing/${hook.id}`, { as: teamAdmin, body: { ...hook, token: undefined } });
    assert.equal(withoutToken.statusCode, 400);
    assert.equal(withoutToken.json().id, 'model.outgoing_hook.is_valid.token.app_error');

    const wrongId = await h.request('PUT', `/api/v4/hooks/outgoing/${hook.id}`, { as: teamAdmin, body: { ...hook, id: newId() } });
    assert.equal(wrongId.statusCode, 400);

    const otherTeam = await h.request('PUT', `/api/v4/hooks/outgoing/${hook.id}`, { as: admin, body: { ...hook, team_id: newId() } });
    assert.equal(otherTeam.statusCode, 400);
    assert.equal(otherTeam.json().id, 'api.webhook.team_mismatch.app_error');

    const toPrivate = await h.request('PUT', `/api/v4/hooks/outgoing/${hook.id}`, { as: teamAdmin, body: { ...hook, channel_id: privateChannel } });
    assert.equal(toPrivate.statusCode, 403);
    assert.equal(toPrivate.json().id, 'api.webhook.create_outgoing.not_open.app_error');

    const noTriggers = await h.request('PUT', `/api/v4/hooks/outgoing/${hook.id}`, { as: teamAdmin, body: { ...hook, trigger_words: [] } });
    assert.equal(noTriggers.statusCode, 500);
    assert.equal(noTriggers.json().id, 'api.webhook.create_outgoing.triggers.app_error');

    const updated = await h.request('PUT', `/api/v4/hooks/outgoing/${hook.id}`, { as: admin, body: { ...hook, display_name: 'Renamed', create_at: 1 } });
    assert.equal(updated.statusCode, 200);
    const u = updated.json();
    assert.equal(u.display_name, 'Renamed');
    assert.equal(u.creator_id, admin.id);
    assert.equal(u.create_at, hook.create_at);
    assert.equal(u.signing_secret, hook.signing_secret);
    assert.ok(u.update_at > hook.update_at);

    const regen = (await h.request('POST', `/api/v4/hooks/outgoing/${hook.id}/regen_token`, { as: admin })).json();
    assert.notEqual(regen.token, hook.token);
    assert.match(regen.token, /^[a-z0-9]{26}$/);
    const secret = await h.request('POST', `/api/v4/hooks/outgoing/${hook.id}/regen_signing_secret`, { as: admin });
    assert.equal(secret.statusCode, 200);
    assert.notEqual(secret.json().signing_secret, hook.signing_secret);

    const deleted = await h.request('DELETE', `/api/v4/hooks/outgoing/${hook.id}`, { as: admin });
    assert.equal(deleted.statusCode, 200);
    assert.deepEqual(deleted.json(), { status: 'OK' });
    const gone = await h.request('GET', `/api/v4/hooks/outgoing/${hook.id}`, { as: admin });
    assert.equal(gone.statusCode, 404);
    assert.equal(gone.json().id, 'app.webhooks.get_outgoing.app_error');
  });

  it('when someone else made the hook, then a plain member cannot see it and a bad hook id is 400', async () => {
    const hook = (await create(admin, { trigger_words: ['x1'] })).json();
    const res = await h.request('GET', `/api/v4/hooks/outgoing/${hook.id}`, { as: member });
    assert.equal(res.statusCode, 403);
    const bad = await h.request('GET', '/api/v4/hooks/outgoing/not-an-id', { as: admin });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().id, 'api.context.invalid_url_param.app_error');
  });

  it('when hooks are listed by team, channel or globally, then filters, paging and permissions apply', async () => {
    const team = h.world.team('listing');
    const ta = { id: h.world.user('ta2', { teamId: team, teamRoles: 'team_user team_admin' }).id, roles: 'system_user' };
    const channel = h.world.channel(team, 'O').id;
    const mk = (body: Record<string, unknown>) => h.request('POST', '/api/v4/hooks/outgoing', { as: ta, body: { team_id: team, callback_urls: ['http://example.com/l'], ...body } });
    await mk({ channel_id: channel });
    await mk({ trigger_words: ['l1'] });
    await mk({ trigger_words: ['l2'] });
    const byTeam = await h.request('GET', `/api/v4/hooks/outgoing?team_id=${team}`, { as: ta });
    assert.equal(byTeam.json().length, 3);
    const byChannel = await h.request('GET', `/api/v4/hooks/outgoing?channel_id=${channel}`, { as: ta });
    assert.equal(byChannel.json().length, 1);
    const paged = await h.request('GET', `/api/v4/hooks/outgoing?team_id=${team}&page=1&per_page=2`, { as: ta });
    assert.equal(paged.json().length, 1);
    const global = await h.request('GET', '/api/v4/hooks/outgoing', { as: ta });
    assertError(global, 403, 'api.context.permissions.app_error');
    const all = await h.request('GET', '/api/v4/hooks/outgoing?per_page=200', { as: admin });
    assert.ok(all.json().length >= 3);
  });

  it('when EnableOutgoingWebhooks is off, then every CRUD call is 501', async () => {
    const hook = (await create(admin, { trigger_words: ['off1'] })).json();
    h.setConfig((c) => {
      c.ServiceSettings.EnableOutgoingWebhooks = false;
    });
    try {
      for (const [method, url] of [
        ['POST', '/api/v4/hooks/outgoing'],
        ['GET', '/api/v4/hooks/outgoing'],
        ['GET', `/api/v4/hooks/outgoing/${hook.id}`],
        ['PUT', `/api/v4/hooks/outgoing/${hook.id}`],
        ['DELETE', `/api/v4/hooks/outgoing/${hook.id}`],
        ['POST', `/api/v4/hooks/outgoing/${hook.id}/regen_token`],
      ] as const) {
        const res = await h.request(method, url, { as: admin, body: { ...hook, team_id: teamId } });
        assert.equal(res.statusCode, 501, `${method} ${url}`);
        assert.equal(res.json().id, 'api.outgoing_webhook.disabled.app_error');
      }
    } finally {
      h.setConfig((c) => {
        c.ServiceSettings.EnableOutgoingWebhooks = true;
      });
    }
  });
});
