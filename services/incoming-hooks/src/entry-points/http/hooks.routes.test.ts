import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import { assertError } from '../../test-support/assert-error';
import { httpHarness, type HttpHarness } from '../../test-support/http-harness';

const errorId = (res: { json(): unknown }): string => (res.json() as { id: string }).id;

describe('incoming hook CRUD (/api/v4/hooks/incoming)', () => {
  let h: HttpHarness;
  before(async () => {
    h = await httpHarness();
  });
  after(async () => {
    await h.stop();
  });

  it('when a team admin creates a hook, then 201 with the reference fields, reaction_notifications, the transform fields and the creator as owner', async () => {
    const res = await h.request('POST', '/api/v4/hooks/incoming', { as: h.teamAdmin, body: { channel_id: h.town.id, display_name: 'Builds', description: 'CI', reaction_notifications: true } });
    assert.equal(res.statusCode, 201);
    assert.equal(res.headers['content-type'], 'application/json');
    const hook = res.json() as Record<string, unknown>;
    assert.deepEqual(Object.keys(hook).sort(), ['channel_id', 'channel_locked', 'create_at', 'delete_at', 'description', 'display_name', 'icon_url', 'id', 'reaction_notifications', 'team_id', 'update_at', 'user_id', 'username', 'transform', 'only_events', 'exclude_events', 'transform_secret'].sort());
    assert.equal(hook.user_id, h.teamAdmin.userId);
    assert.deepEqual([hook.transform, hook.only_events, hook.exclude_events, hook.transform_secret], [null, [], [], '']);
    assert.equal(hook.team_id, h.teamId);
    assert.equal(hook.reaction_notifications, true);
    assert.equal(hook.channel_locked, false);
  });

  it('when EnforceIncomingWebhookChannelLocking is on (11.2), then every hook is saved locked, even for those who may bypass the lock', async () => {
    h.setConfig((c) => (c.ServiceSettings.EnforceIncomingWebhookChannelLocking = true));
    try {
      const created = await h.createHook({ channel_locked: false });
      assert.equal(created.channel_locked, true);
      const updated = await h.request('PUT', `/api/v4/hooks/incoming/${created.id}`, { as: h.teamAdmin, body: { ...created, channel_locked: false } });
      assert.equal(updated.statusCode, 201, updated.body);
      assert.equal((updated.json() as { channel_locked: boolean }).channel_locked, true);
    } finally {
      h.setConfig((c) => (c.ServiceSettings.EnforceIncomingWebhookChannelLocking = false));
    }
  });

  it('when a team admin (who holds the bypass permission) asks for a locked hook, then channel_locked stays as asked', async () => {
    const locked = await h.createHook({ channel_locked: true });
    assert.equal(locked.channel_locked, true);
    const open = await h.createHook({ channel_locked: false });
    assert.equal(open.channel_locked, false);
  });

  it('when a plain team member tries to create, list or read hooks, then 403 with the missing permission', async () => {
    const hook = await h.createHook();
    for (const [method, url] of [['GET', `/api/v4/hooks/incoming?team_id=${h.teamId}`], ['GET', `/api/v4/hooks/incoming/${hook.id}`], ['GET', '/api/v4/hooks/incoming']] as const) {
      const res = await h.request(method, url, { as: h.member });
      assert.equal(res.statusCode, 403, url);
      assert.match((res.json() as { detailed_error: string; id: string }).id, /permissions/);
    }
  });

  it('when the title, description, username or icon is too long, then 400 with the model id', async () => {
    h.setConfig((c) => {
      c.ServiceSettings.EnablePostUsernameOverride = true;
      c.ServiceSettings.EnablePostIconOverride = true;
    });
    const cases: [Record<string, unknown>, string][] = [
      [{ display_name: 'x'.repeat(65) }, 'model.incoming_hook.display_name.app_error'],
      [{ description: 'x'.repeat(501) }, 'model.incoming_hook.description.app_error'],
      [{ username: 'a'.repeat(65) }, 'api.incoming_webhook.invalid_username.app_error'],
      [{ username: 'Bad Name' }, 'api.incoming_webhook.invalid_username.app_error'],
      [{ icon_url: `https://e.example/${'x'.repeat(1020)}` }, 'model.incoming_hook.icon_url.app_error'],
    ];
    for (const [body, id] of cases) {
      const res = await h.request('POST', '/api/v4/hooks/incoming', { as: h.teamAdmin, body: { channel_id: h.town.id, ...body } });
      assert.equal(res.statusCode, 400, id);
      assert.equal(errorId(res), id);
    }
    const ok = await h.request('POST', '/api/v4/hooks/incoming', { as: h.teamAdmin, body: { channel_id: h.town.id, display_name: '😀'.repeat(64), description: 'é'.repeat(500), username: 'ci-bot', icon_url: 'https://e.example/i.png' } });
    assert.equal(ok.statusCode, 201, ok.body);
    assert.equal((ok.json() as { username: string }).username, 'ci-bot');
    h.setConfig((c) => {
      c.ServiceSettings.EnablePostUsernameOverride = false;
      c.ServiceSettings.EnablePostIconOverride = false;
    });
  });

  it('when name and icon overrides are off, then username and icon_url are cleared on create', async () => {
    const hook = await h.createHook({ username: 'ci', icon_url: 'https://e.example/i.png' });
    assert.equal(hook.username, '');
    assert.equal(hook.icon_url, '');
  });

  it('when the channel is missing, then 404 app.channel.get.existing.app_error; a bad body is 400 invalid_body_param', async () => {
    const missing = await h.request('POST', '/api/v4/hooks/incoming', { as: h.teamAdmin, body: { channel_id: newId() } });
    assert.equal(missing.statusCode, 404);
    assert.equal(errorId(missing), 'app.channel.get.existing.app_error');
    const empty = await h.request('POST', '/api/v4/hooks/incoming', { as: h.teamAdmin, body: {} });
    assert.equal(empty.statusCode, 404);
    const bad = await h.request('POST', '/api/v4/hooks/incoming', { as: h.teamAdmin, body: { channel_id: 5 } });
    assert.equal(bad.statusCode, 400);
    assert.equal(errorId(bad), 'api.context.invalid_body_param.app_error');
    const notJson = await h.request('POST', '/api/v4/hooks/incoming', { as: h.teamAdmin, raw: '{nope', headers: { 'content-type': 'application/json' } });
    assertError(notJson, 400, 'api.context.invalid_body_param.app_error');
  });

  it('when the channel is private, then only a creator who can read it may create a hook there', async () => {
    const secret = h.channels.add({ team_id: h.teamId, type: 'P', name: 'secret' });
    const denied = await h.request('POST', '/api/v4/hooks/incoming', { as: h.teamAdmin, body: { channel_id: secret.id } });
    assert.equal(denied.statusCode, 403);
    h.channels.join(secret.id, h.teamAdmin.userId);
    const allowed = await h.request('POST', '/api/v4/hooks/incoming', { as: h.teamAdmin, body: { channel_id: secret.id } });
    assert.equal(allowed.statusCode, 201);
  });

  it('when a direct channel is given, then 400 model.incoming_hook.team_id.app_error', async () => {
    const dm = h.channels.add({ team_id: '', type: 'D', name: `${h.admin.userId}__${h.teamAdmin.userId}` });
    const res = await h.request('POST', '/api/v4/hooks/incoming', { as: h.admin, body: { channel_id: dm.id } });
    assert.equal(res.statusCode, 400);
    assert.equal(errorId(res), 'model.incoming_hook.team_id.app_error');
  });

  it('when user_id names someone else, then manage-others is needed and the hook belongs to that user', async () => {
    const res = await h.request('POST', '/api/v4/hooks/incoming', { as: h.teamAdmin, body: { channel_id: h.town.id, user_id: h.member.userId } });
    assert.equal(res.statusCode, 201);
    assert.equal((res.json() as { user_id: string }).user_id, h.member.userId);
    const unknown = await h.request('POST', '/api/v4/hooks/incoming', { as: h.teamAdmin, body: { channel_id: h.town.id, user_id: newId() } });
    assert.equal(unknown.statusCode, 404);
  });

  it('when incoming webhooks are disabled, then every CRUD call answers 501 api.incoming_webhook.disabled.app_error', async () => {
    const hook = await h.createHook();
    h.setConfig((c) => (c.ServiceSettings.EnableIncomingWebhooks = false));
    try {
      for (const [method, url, body] of [
        ['POST', '/api/v4/hooks/incoming', { channel_id: h.town.id }],
        ['GET', '/api/v4/hooks/incoming', undefined],
        ['GET', `/api/v4/hooks/incoming/${hook.id}`, undefined],
        ['PUT', `/api/v4/hooks/incoming/${hook.id}`, { ...hook }],
        ['DELETE', `/api/v4/hooks/incoming/${hook.id}`, undefined],
      ] as const) {
        const res = await h.request(method, url, { as: h.admin, ...(body ? { body } : {}) });
        assert.equal(res.statusCode, 501, `${method} ${url}`);
        assert.equal(errorId(res), 'api.incoming_webhook.disabled.app_error');
      }
    } finally {
      h.setConfig((c) => (c.ServiceSettings.EnableIncomingWebhooks = true));
    }
  });

  it('when listing, then manage-others sees the whole team, others only their own; include_total_count wraps the page', async () => {
    const other = await h.createHook({}, h.admin);
    const team = await h.request('GET', `/api/v4/hooks/incoming?team_id=${h.teamId}&per_page=200`, { as: h.teamAdmin });
    assert.equal(team.statusCode, 200);
    const ids = (team.json() as { id: string }[]).map((x) => x.id);
    assert.ok(ids.includes(other.id), 'a team admin sees the admin-owned hook of the team');
    const all = await h.request('GET', '/api/v4/hooks/incoming?include_total_count=true&per_page=2', { as: h.admin });
    const body = all.json() as { incoming_webhooks: unknown[]; total_count: number };
    assert.equal(body.incoming_webhooks.length, 2);
    assert.ok(body.total_count >= ids.length);
    const noTeam = await h.request('GET', '/api/v4/hooks/incoming', { as: h.teamAdmin });
    assertError(noTeam, 403, 'api.context.permissions.app_error', 'without team_id the permission is system-wide');
  });

  it('when reading another user\'s hook without manage-others, then 403; a bad or unknown id is 400 / 404', async () => {
    const hook = await h.createHook({}, h.admin);
    const mine = await h.request('GET', `/api/v4/hooks/incoming/${hook.id}`, { as: h.admin });
    assert.equal(mine.statusCode, 200);
    const bad = await h.request('GET', '/api/v4/hooks/incoming/nope', { as: h.admin });
    assert.equal(bad.statusCode, 400);
    assert.equal(errorId(bad), 'api.context.invalid_url_param.app_error');
    const unknown = await h.request('GET', `/api/v4/hooks/incoming/${newId()}`, { as: h.admin });
    assert.equal(unknown.statusCode, 404);
    assert.equal(errorId(unknown), 'app.webhooks.get_incoming.app_error');
    const anonymous = await h.request('GET', `/api/v4/hooks/incoming/${hook.id}`);
    assertError(anonymous, 401, 'api.context.session_expired.app_error');
  });

  it('when updating, then 201 with identity fields kept; id mismatch, team mismatch and cross-team channels are 400', async () => {
    const hook = await h.createHook({ description: 'old' });
    h.clock.advance(1000);
    const res = await h.request('PUT', `/api/v4/hooks/incoming/${hook.id}`, { as: h.teamAdmin, body: { ...hook, description: 'new', create_at: 1, user_id: h.member.userId, reaction_notifications: true } });
    assert.equal(res.statusCode, 201, res.body);
    const updated = res.json() as Record<string, unknown>;
    assert.equal(updated.description, 'new');
    assert.equal(updated.create_at, hook.create_at);
    assert.equal(updated.user_id, hook.user_id);
    assert.equal(updated.reaction_notifications, true);
    assert.ok((updated.update_at as number) > (hook.update_at as number));
    const mismatch = await h.request('PUT', `/api/v4/hooks/incoming/${hook.id}`, { as: h.teamAdmin, body: { ...hook, id: newId() } });
    assert.equal(mismatch.statusCode, 400);
    assert.equal(errorId(mismatch), 'api.context.invalid_body_param.app_error');
    const team = await h.request('PUT', `/api/v4/hooks/incoming/${hook.id}`, { as: h.teamAdmin, body: { ...hook, team_id: newId() } });
    assert.equal(team.statusCode, 400);
    assert.equal(errorId(team), 'api.webhook.team_mismatch.app_error');
    const elsewhere = h.channels.add({ team_id: newId(), type: 'O', name: 'elsewhere' });
    const cross = await h.request('PUT', `/api/v4/hooks/incoming/${hook.id}`, { as: h.teamAdmin, body: { ...hook, channel_id: elsewhere.id } });
    assert.equal(cross.statusCode, 400);
    const tooLong = await h.request('PUT', `/api/v4/hooks/incoming/${hook.id}`, { as: h.teamAdmin, body: { ...hook, display_name: 'x'.repeat(65) } });
    assert.equal(errorId(tooLong), 'model.incoming_hook.display_name.app_error');
  });

  it('when deleting, then {"status":"OK"}, the hook is gone for reads and its key stops working', async () => {
    const hook = await h.createHook();
    const res = await h.request('DELETE', `/api/v4/hooks/incoming/${hook.id}`, { as: h.teamAdmin });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'OK' });
    const read = await h.request('GET', `/api/v4/hooks/incoming/${hook.id}`, { as: h.teamAdmin });
    assert.equal(read.statusCode, 404);
    const post = await h.request('POST', `/hooks/${hook.id}`, { body: { text: 'hi' } });
    assert.equal(post.statusCode, 400);
    assert.equal(errorId(post), 'web.incoming_webhook.invalid.app_error');
  });
});
