import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Team } from '@mattermost/types/teams';
import { givenAdminWorld, serviceSettingsRestorer } from './support/admin-world';
import { patchConfig, type AdminSession } from './support/fixtures';
import { assertAppError, raw } from './support/http';
import { channelPosts, createIncomingHook, sendToHook } from './support/incoming-hooks';
import { newChannel, newTeam, postIn, teamBot, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

/** docs/compatibility.md, read as the page a user reads: the reported version and the table's Check column. */
const page = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'compatibility.md'), 'utf8');
const reported = /answers as Mattermost \*\*`([0-9]+\.[0-9]+\.[0-9]+)`\*\*/.exec(page)?.[1] ?? '';
const checks = [...page.matchAll(/(route|config): ([A-Z]+ \/\S+|[A-Za-z]+\.[A-Za-z]+)/g)].map((m) => ({ kind: m[1] as 'route' | 'config', what: m[2] ?? '' }));

describe('docs/compatibility.md is true of the running product', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
  });
  after(async () => {
    await target?.stop();
  });

  it('when the page names the reported version, then X-Version-Id, the client config and ping say the same', async () => {
    assert.match(reported, /^\d+\.\d+\.\d+$/, 'the page states the reported version');
    const ping = await raw(target.url, 'GET', '/api/v4/system/ping?get_server_status=true');
    assert.equal(ping.status, 200, ping.text);
    assert.ok((ping.headers.get('x-version-id') ?? '').startsWith(`${reported}.`), String(ping.headers.get('x-version-id')));
    const body = ping.json as Record<string, unknown>;
    assert.equal(body.server_version, reported);
    assert.equal(body.status, 'OK');
    assert.equal(body.database_status, 'OK');
    assert.equal(body.filestore_status, 'OK');
    for (const key of ['AndroidLatestVersion', 'AndroidMinVersion', 'IosLatestVersion', 'IosMinVersion']) assert.equal(typeof body[key], 'string', key);
    const plain = await raw(target.url, 'GET', '/api/v4/system/ping');
    assert.deepEqual(plain.json, { status: 'OK' }, 'without get_server_status the answer is the reference\'s short one');
    const client = await raw(target.url, 'GET', '/api/v4/config/client?format=old');
    if (client.status === 200) assert.equal((client.json as { Version?: string }).Version, reported);
  });

  it('when the page names routes in its Check column, then each exists (answers anything but the 404 of an unknown route)', async () => {
    const routes = checks.filter((c) => c.kind === 'route');
    assert.ok(routes.length >= 3, `routes named: ${routes.length}`);
    for (const { what } of routes) {
      const [method = 'GET', path = '/'] = what.split(' ');
      const res = await raw(target.url, method, path, { token: admin.token, ...(method === 'GET' ? {} : { body: {} }) });
      assert.notEqual((res.json as { id?: string } | undefined)?.id, 'api.context.404.app_error', `${what} is not a route: ${res.text.slice(0, 200)}`);
    }
  });

  it('when the page names config keys in its Check column, then each is in the config document', async () => {
    const config = (await admin.client.getConfig()) as unknown as Record<string, Record<string, unknown>>;
    const keys = checks.filter((c) => c.kind === 'config');
    assert.ok(keys.length >= 3, `keys named: ${keys.length}`);
    for (const { what } of keys) {
      const [section = '', key = ''] = what.split('.');
      assert.ok(config[section] && key in config[section], `${what} is not in the config`);
    }
  });
});

describe('the reference after 5.37: incoming hooks and session posts (11.2, 11.10, 12.0)', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let member: Actor;
  let restore: () => Promise<void>;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    restore = await serviceSettingsRestorer(admin, ['EnforceIncomingWebhookChannelLocking', 'StripIntegrationPropsFromUserPosts', 'EnablePostUsernameOverride']);
    team = await newTeam(admin);
    member = await teamMember(target.url, admin, team, 'cmp');
  });
  after(async () => {
    await restore?.();
    await target?.stop();
  });

  it('when EnforceIncomingWebhookChannelLocking is on, then a hook saved unlocked comes back locked and cannot post to another channel', async () => {
    const home = await newChannel(admin, team, 'O');
    const other = await newChannel(admin, team, 'O');
    await patchConfig(admin.client, { ServiceSettings: { EnforceIncomingWebhookChannelLocking: true } });
    const hook = await createIncomingHook(target.url, admin.token, { channel_id: home.id, channel_locked: false });
    assert.equal(hook.channel_locked, true);
    assertAppError(await sendToHook(target.url, hook.id, { text: 'x', channel: other.name }), 403, 'web.incoming_webhook.channel_locked.app_error');
    assert.equal((await sendToHook(target.url, hook.id, { text: 'home' })).status, 200);
    await patchConfig(admin.client, { ServiceSettings: { EnforceIncomingWebhookChannelLocking: false } });
  });

  it('when a hook posts with silent, then the post carries silent_notification "true"', async () => {
    const channel = await newChannel(admin, team, 'O');
    const hook = await createIncomingHook(target.url, admin.token, { channel_id: channel.id });
    assert.equal((await sendToHook(target.url, hook.id, { text: 'shh', silent: true })).status, 200);
    const [post] = (await channelPosts(target.url, admin.token, channel.id)).filter((p) => p.message === 'shh');
    assert.equal(post?.props.silent_notification, 'true');
  });

  it('when StripIntegrationPropsFromUserPosts is on, then a person\'s post loses from_webhook and the overrides (201, no error) while a bot keeps them; off, both keep them', async () => {
    await patchConfig(admin.client, { ServiceSettings: { EnablePostUsernameOverride: true } });
    const channel = await newChannel(member, team, 'O');
    const bot = await teamBot(target.url, admin, team);
    await admin.client.addToChannel(bot.id, channel.id);
    const props = { from_webhook: 'true', override_username: 'impostor', override_icon_url: 'https://example.com/i.png', kept: 'yes' };
    for (const strip of [true, false]) {
      await patchConfig(admin.client, { ServiceSettings: { StripIntegrationPropsFromUserPosts: strip } });
      const human = await postIn(member, channel.id, `human ${strip}`, { props });
      assert.equal(human.props.kept, 'yes');
      for (const key of ['from_webhook', 'override_username', 'override_icon_url']) assert.equal(human.props[key], strip ? undefined : props[key as keyof typeof props], `${key} strip=${strip}`);
      const fromBot = await postIn(bot, channel.id, `bot ${strip}`, { props });
      assert.equal(fromBot.props.override_username, 'impostor', `a bot keeps its overrides (strip=${strip})`);
    }
  });
});
