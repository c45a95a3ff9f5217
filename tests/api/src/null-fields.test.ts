import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import type { Team } from '@mattermost/types/teams';
import { createBot, createUser, ensureAdmin, issueToken, patchConfig, PASSWORD, suffix, uniqueName, type AdminSession, type NewUser } from './support/fixtures';
import { raw, type RawResponse } from './support/http';
import { createIncomingHook } from './support/incoming-hooks';
import { newChannel, newTeam, postIn, teamMember, type Actor } from './support/posts-fixtures';
import { startTarget, type Target } from './support/target';

/**
 * JSON `null` means "not set" on every body, as when the reference decodes a body into a Go struct or
 * map: real clients send nulls for fields they leave unset (mattermostdriver's login `"token": null`,
 * Go Client4's config patch, ...). For every body-taking route and every field of a full valid body:
 * - an optional field sent as `null` gives the route's success status;
 * - any field sent as `null` gives exactly the answer (status and error id) of the same body without it.
 */

type Json = Record<string, unknown>;

interface Fixture {
  readonly admin: AdminSession;
  readonly team: Team;
  readonly channel: Channel;
  readonly member: Actor;
  readonly user: NewUser;
}

interface BodyRoute {
  readonly method: 'POST' | 'PUT';
  /** Built fresh for every request (some requests use up what they name: a bot to convert, a session). */
  readonly path: (f: Fixture) => Promise<string> | string;
  /** A full valid body, fresh for every request (unique names). */
  readonly body: (f: Fixture) => Promise<Json> | Json;
  /** The success status; undefined when the full body cannot succeed here (then only null ≡ absent is checked). */
  readonly ok: number | undefined;
  /** Fields (dotted for nested ones) whose null must succeed; the others must answer as if absent. */
  readonly optional: readonly string[];
  /** Fields that must answer as if absent but need not succeed (required ones); default: the body's other keys. */
  readonly required?: readonly string[];
  /** Unauthenticated (login, incoming hook). */
  readonly anonymous?: boolean;
}

let targetUrl = '';
const id26 = (): string => `${suffix(13)}${suffix(13)}`.slice(0, 26);

/** A copy of the body with the (dotted) field set to null, or removed. */
function edit(body: Json, field: string, mode: 'null' | 'absent'): Json {
  const copy = JSON.parse(JSON.stringify(body)) as Json;
  const keys = field.split('.');
  let at: Json = copy;
  for (const key of keys.slice(0, -1)) at = at[key] as Json;
  const last = keys[keys.length - 1] as string;
  if (mode === 'null') at[last] = null;
  else delete at[last];
  return copy;
}

const answerOf = (res: RawResponse): string => `${res.status} ${res.status >= 400 ? String((res.json as Json | undefined)?.id) : 'ok'}`;

const routes: Record<string, BodyRoute> = {
  'POST /users/login': {
    method: 'POST',
    path: () => '/api/v4/users/login',
    anonymous: true,
    body: (f) => ({ login_id: f.user.username, password: f.user.password, token: '', device_id: 'dev', ldap_only: 'false' }),
    ok: 200,
    optional: ['token', 'device_id', 'ldap_only'],
  },
  'POST /users': {
    method: 'POST',
    path: () => '/api/v4/users',
    body: () => {
      const name = uniqueName('nul');
      return { username: name, email: `${name}@example.com`, password: PASSWORD, nickname: 'n', first_name: 'f', last_name: 'l', position: 'p', locale: 'en', props: {}, notify_props: {}, timezone: {} };
    },
    ok: 201,
    optional: ['nickname', 'first_name', 'last_name', 'position', 'locale', 'props', 'notify_props', 'timezone'],
  },
  'POST /bots': {
    method: 'POST',
    path: () => '/api/v4/bots',
    body: () => ({ username: uniqueName('nb'), display_name: 'Null bot', description: 'd' }),
    ok: 201,
    optional: ['display_name', 'description'],
  },
  'PUT /bots/{id}': {
    method: 'PUT',
    path: async (f) => `/api/v4/bots/${(await createBot(f.admin.client, 'npb')).user_id}`,
    body: () => ({ username: uniqueName('npb'), display_name: 'Patched', description: 'patched' }),
    ok: 200,
    optional: ['username', 'display_name', 'description'],
  },
  'POST /bots/{id}/convert_to_user': {
    method: 'POST',
    path: async (f) => `/api/v4/bots/${(await createBot(f.admin.client, 'ncv')).user_id}/convert_to_user?set_system_admin=false`,
    body: () => {
      const name = uniqueName('ncv');
      return { password: PASSWORD, username: name, email: `${name}@example.com`, nickname: 'n', first_name: 'f', last_name: 'l', position: 'p' };
    },
    ok: 200,
    optional: ['username', 'email', 'nickname', 'first_name', 'last_name', 'position'],
  },
  'POST /teams': {
    method: 'POST',
    path: () => '/api/v4/teams',
    body: () => ({ name: uniqueName('nt'), display_name: 'Null team', type: 'O', description: 'd', company_name: 'c', allowed_domains: '', allow_open_invite: false }),
    ok: 201,
    optional: ['description', 'company_name', 'allowed_domains', 'allow_open_invite'],
  },
  'POST /teams/{id}/members': {
    method: 'POST',
    path: (f) => `/api/v4/teams/${f.team.id}/members`,
    body: async (f) => ({ team_id: f.team.id, user_id: (await createUser(f.admin.client, 'ntm')).user.id }),
    ok: 201,
    optional: ['team_id'],
  },
  'POST /users/{id}/tokens': {
    method: 'POST',
    path: (f) => `/api/v4/users/${f.user.user.id}/tokens`,
    body: () => ({ description: 'null suite', expires_at: 0 }),
    ok: 200,
    optional: ['expires_at'],
  },
  'PUT /users/{id}/active': {
    method: 'PUT',
    path: (f) => `/api/v4/users/${f.user.user.id}/active`,
    body: () => ({ active: true }),
    ok: 200,
    optional: [],
  },
  'PUT /users/{id}/roles': {
    method: 'PUT',
    path: (f) => `/api/v4/users/${f.user.user.id}/roles`,
    body: () => ({ roles: 'system_user' }),
    ok: 200,
    optional: [],
  },
  'POST /users/tokens/revoke': {
    method: 'POST',
    path: () => '/api/v4/users/tokens/revoke',
    body: async (f) => ({ token_id: (await issueToken(f.admin.client, f.user.user.id, 'to revoke')).id }),
    ok: 200,
    optional: [],
  },
  'POST /users/{id}/sessions/revoke': {
    method: 'POST',
    path: (f) => `/api/v4/users/${f.user.user.id}/sessions/revoke`,
    body: async (f) => {
      const login = await raw(targetUrl, 'POST', '/api/v4/users/login', { body: { login_id: f.user.username, password: f.user.password } });
      const sessions = await raw(targetUrl, 'GET', `/api/v4/users/${f.user.user.id}/sessions`, { token: String(login.headers.get('token')) });
      return { session_id: (sessions.json as { id: string }[])[0]?.id };
    },
    ok: 200,
    optional: [],
  },
  'POST /channels': {
    method: 'POST',
    path: () => '/api/v4/channels',
    body: (f) => ({ team_id: f.team.id, name: uniqueName('nch'), display_name: 'Null channel', type: 'O', purpose: 'p', header: 'h' }),
    ok: 201,
    optional: ['purpose', 'header'],
  },
  'POST /channels/{id}/members': {
    method: 'POST',
    path: (f) => `/api/v4/channels/${f.channel.id}/members`,
    body: async (f) => {
      const user = await createUser(f.admin.client, 'ncm');
      await f.admin.client.addToTeam(f.team.id, user.user.id);
      return { user_id: user.user.id, post_root_id: '' };
    },
    ok: 201,
    optional: ['post_root_id'],
  },
  'POST /posts': {
    method: 'POST',
    path: () => '/api/v4/posts',
    body: (f) => ({
      channel_id: f.channel.id,
      message: 'null suite',
      type: '',
      props: { k: 'v' },
      root_id: '',
      file_ids: [],
      pending_post_id: `${f.admin.user.id}:${Date.now()}${suffix(4)}`,
      metadata: { priority: { priority: 'important', requested_ack: false, persistent_notifications: false } },
    }),
    ok: 201,
    optional: ['message', 'type', 'props', 'root_id', 'file_ids', 'pending_post_id', 'metadata', 'metadata.priority', 'metadata.priority.priority', 'metadata.priority.requested_ack', 'metadata.priority.persistent_notifications'],
  },
  'POST /posts/ephemeral': {
    method: 'POST',
    path: () => '/api/v4/posts/ephemeral',
    body: (f) => ({ user_id: f.member.id, post: { id: id26(), channel_id: f.channel.id, message: 'eph', props: {}, root_id: '' } }),
    ok: 201,
    optional: ['post.id', 'post.message', 'post.props', 'post.root_id'],
  },
  'PUT /posts/{id}': {
    method: 'PUT',
    path: async (f) => `/api/v4/posts/${(await postIn(f.admin, f.channel.id, 'to update')).id}`,
    body: () => ({ id: '', message: 'updated', props: {}, file_ids: [], is_pinned: false, has_reactions: false }),
    ok: 200,
    optional: ['message', 'props', 'file_ids', 'is_pinned', 'has_reactions'],
    required: ['id'],
  },
  'PUT /posts/{id}/patch': {
    method: 'PUT',
    path: async (f) => `/api/v4/posts/${(await postIn(f.admin, f.channel.id, 'to patch')).id}/patch`,
    body: () => ({ message: 'patched', props: { a: 'b' }, file_ids: [], is_pinned: true, has_reactions: false }),
    ok: 200,
    optional: ['message', 'props', 'file_ids', 'is_pinned', 'has_reactions'],
  },
  'POST /reactions': {
    method: 'POST',
    path: () => '/api/v4/reactions',
    body: async (f) => ({ user_id: f.admin.user.id, post_id: (await postIn(f.admin, f.channel.id, 'react')).id, emoji_name: 'smile' }),
    ok: 200,
    optional: [],
  },
  'POST /hooks/incoming': {
    method: 'POST',
    path: () => '/api/v4/hooks/incoming',
    body: (f) => ({ channel_id: f.channel.id, display_name: 'n', description: 'd', username: '', icon_url: '', channel_locked: false, reaction_notifications: false }),
    ok: 201,
    optional: ['display_name', 'description', 'username', 'icon_url', 'channel_locked', 'reaction_notifications'],
  },
  'PUT /hooks/incoming/{id}': {
    method: 'PUT',
    path: () => '/api/v4/hooks/incoming/HOOK',
    body: () => ({}),
    ok: 201,
    optional: ['team_id', 'user_id', 'display_name', 'description', 'username', 'icon_url', 'channel_locked', 'reaction_notifications', 'create_at', 'update_at', 'delete_at'],
    required: ['id', 'channel_id'],
  },
  'POST /hooks/outgoing': {
    method: 'POST',
    path: () => '/api/v4/hooks/outgoing',
    body: (f) => ({ team_id: f.team.id, channel_id: f.channel.id, trigger_words: [], trigger_when: 0, callback_urls: ['https://example.com/cb'], display_name: 'o', description: 'd', content_type: 'application/json', username: '', icon_url: '' }),
    ok: 201,
    optional: ['trigger_words', 'trigger_when', 'display_name', 'description', 'content_type', 'username', 'icon_url'],
  },
  'PUT /hooks/outgoing/{id}': {
    method: 'PUT',
    path: () => '/api/v4/hooks/outgoing/HOOK',
    body: () => ({}),
    ok: 200,
    optional: ['creator_id', 'trigger_words', 'trigger_when', 'display_name', 'description', 'content_type', 'username', 'icon_url', 'team_id'],
    // The reference keeps no old token on update: without one (null or absent) the hook is invalid; with no
    // trigger words, channel_id is needed (its 500 api.webhook.create_outgoing.triggers.app_error quirk).
    required: ['id', 'callback_urls', 'token', 'channel_id'],
  },
  'POST /users/tokens/disable': {
    method: 'POST',
    path: () => '/api/v4/users/tokens/disable',
    body: async (f) => ({ token_id: (await issueToken(f.admin.client, f.user.user.id, 'to disable')).id }),
    ok: 200,
    optional: [],
  },
  'POST /posts/{id}/actions/{action_id}': {
    method: 'POST',
    path: () => '/api/v4/posts/POST/actions/ACTION',
    body: () => ({ selected_option: 'a', cookie: '' }),
    // The action's integration is refused (loopback, not allow-listed): the same refusal either way.
    ok: undefined,
    optional: [],
    required: ['selected_option', 'cookie'],
  },
  'POST /actions/dialogs/open': {
    method: 'POST',
    path: () => '/api/v4/actions/dialogs/open',
    body: () => ({ trigger_id: 'not-a-trigger', url: 'https://example.com/dialog', dialog: { title: 't', elements: [] } }),
    ok: undefined,
    optional: [],
    required: ['trigger_id', 'url', 'dialog'],
  },
  'POST /commands': {
    method: 'POST',
    path: () => '/api/v4/commands',
    body: (f) => ({ team_id: f.team.id, trigger: `n${suffix(10)}`, url: 'https://example.com/cmd', method: 'P', display_name: 'd', description: 'x', username: 'u', icon_url: '', auto_complete: true, auto_complete_desc: 'a', auto_complete_hint: '[h]', token: '', id: '' }),
    ok: 201,
    optional: ['display_name', 'description', 'username', 'icon_url', 'auto_complete', 'auto_complete_desc', 'auto_complete_hint', 'token', 'id'],
  },
  'PUT /commands/{id}': {
    method: 'PUT',
    path: () => '/api/v4/commands/COMMAND',
    body: () => ({}),
    ok: 200,
    optional: ['token', 'creator_id', 'create_at', 'update_at', 'delete_at', 'plugin_id', 'display_name', 'description', 'username', 'icon_url', 'auto_complete', 'auto_complete_desc', 'auto_complete_hint'],
    required: ['id', 'team_id', 'trigger', 'url', 'method'],
  },
  'POST /commands/execute': {
    method: 'POST',
    path: () => '/api/v4/commands/execute',
    body: (f) => ({ command: '/no-such-trigger here', channel_id: f.channel.id, team_id: f.team.id, root_id: '', parent_id: '' }),
    // No command has that trigger: 404 not_found, the same with any field null or absent.
    ok: undefined,
    optional: [],
  },
  'POST /hooks/{key}': {
    method: 'POST',
    path: () => '/hooks/KEY',
    anonymous: true,
    body: () => ({ text: 'from a sender', username: '', icon_url: '', channel: '', props: {}, attachments: [], type: '', icon_emoji: '', priority: { priority: '' } }),
    ok: 200,
    optional: ['username', 'icon_url', 'channel', 'props', 'attachments', 'type', 'icon_emoji', 'priority'],
    // Given a priority object, its priority is required (400 invalid_param webhook.priority.priority), null or absent.
    required: ['text', 'priority.priority'],
  },
};

describe('JSON null means "not set" on every body (black box)', { timeout: 600_000 }, () => {
  let target: Target;
  let f: Fixture;
  let restore: Json = {};

  before(async () => {
    target = await startTarget();
    targetUrl = target.url;
    const admin = await ensureAdmin(target.url);
    const config = (await raw(target.url, 'GET', '/api/v4/config', { token: admin.token })).json as { ServiceSettings: Json };
    restore = { EnableBotAccountCreation: config.ServiceSettings.EnableBotAccountCreation, EnableUserAccessTokens: config.ServiceSettings.EnableUserAccessTokens };
    await patchConfig(admin.client, { ServiceSettings: { EnableBotAccountCreation: true, EnableUserAccessTokens: true } });
    const team = await newTeam(admin);
    const channel = await newChannel({ client: admin.client, token: admin.token, id: admin.user.id, username: admin.user.username }, team);
    f = { admin, team, channel, member: await teamMember(target.url, admin, team, 'nm'), user: await createUser(admin.client, 'nu') };
    await admin.client.addToChannel(f.member.id, channel.id);
    // Routes whose path or body names something made here.
    const incoming = await createIncomingHook(target.url, admin.token, { channel_id: channel.id, display_name: 'null suite' });
    routes['POST /hooks/{key}'] = { ...(routes['POST /hooks/{key}'] as BodyRoute), path: () => `/hooks/${incoming.id}` };
    routes['PUT /hooks/incoming/{id}'] = {
      ...(routes['PUT /hooks/incoming/{id}'] as BodyRoute),
      path: () => `/api/v4/hooks/incoming/${incoming.id}`,
      body: () => ({ ...incoming, display_name: 'updated', description: 'd' }),
    };
    const outgoing = (await raw(target.url, 'POST', '/api/v4/hooks/outgoing', { token: admin.token, body: { team_id: team.id, channel_id: channel.id, callback_urls: ['https://example.com/cb'], display_name: 'null suite' } })).json as Json;
    routes['PUT /hooks/outgoing/{id}'] = {
      ...(routes['PUT /hooks/outgoing/{id}'] as BodyRoute),
      path: () => `/api/v4/hooks/outgoing/${String(outgoing.id)}`,
      body: () => ({ ...outgoing, display_name: 'updated' }),
    };
    const command = (await raw(target.url, 'POST', '/api/v4/commands', { token: admin.token, body: { team_id: team.id, trigger: `n${suffix(10)}`, url: 'https://example.com/cmd', method: 'P' } })).json as Json;
    routes['PUT /commands/{id}'] = { ...(routes['PUT /commands/{id}'] as BodyRoute), path: () => `/api/v4/commands/${String(command.id)}`, body: () => ({ ...command, display_name: 'updated' }) };
    const withAction = await postIn(admin, channel.id, 'with an action', { props: { attachments: [{ text: 'a', actions: [{ name: 'Go', integration: { url: 'http://127.0.0.1:9/action' } }] }] } });
    const actionId = String(((withAction.props.attachments as Json[])[0]?.actions as Json[])[0]?.id);
    routes['POST /posts/{id}/actions/{action_id}'] = { ...(routes['POST /posts/{id}/actions/{action_id}'] as BodyRoute), path: () => `/api/v4/posts/${withAction.id}/actions/${actionId}` };
    routes['PUT /posts/{id}'] = {
      ...(routes['PUT /posts/{id}'] as BodyRoute),
      path: async () => `/api/v4/posts/${(await postIn(admin, channel.id, 'to update')).id}`,
    };
  });
  after(async () => {
    if (f) await patchConfig(f.admin.client, { ServiceSettings: restore });
    await target?.stop();
  });

  for (const name of Object.keys(routes)) {
    it(`${name}: each optional field as null succeeds; each field as null answers as its absence`, async () => {
      const route = routes[name] as BodyRoute; // read now: before() fills in paths that name what it made
      // PUT /posts/{id} needs the id of the post it edits in the body: path and body are made together.
      const sample = async (): Promise<{ path: string; body: Json }> => {
        const path = await route.path(f);
        const body = await route.body(f);
        if (name === 'PUT /posts/{id}') body.id = path.split('/')[4];
        return { path, body };
      };
      const full = await sample();
      const baseline = await raw(targetUrl, route.method, full.path, { ...(route.anonymous ? {} : { token: f.admin.token }), body: full.body });
      if (route.ok !== undefined) assert.equal(baseline.status, route.ok, `the full body works: ${baseline.status} ${baseline.text.slice(0, 300)}`);
      else assert.ok(baseline.status >= 400 && baseline.status < 500, `refused as expected: ${baseline.status} ${baseline.text.slice(0, 300)}`);
      const fields = [...route.optional, ...(route.required ?? Object.keys(full.body).filter((k) => !route.optional.includes(k)))];
      for (const field of fields) {
        const asNull = await sample();
        const nullAnswer = await raw(targetUrl, route.method, asNull.path, { ...(route.anonymous ? {} : { token: f.admin.token }), body: edit(asNull.body, field, 'null') });
        const asAbsent = await sample();
        const absentAnswer = await raw(targetUrl, route.method, asAbsent.path, { ...(route.anonymous ? {} : { token: f.admin.token }), body: edit(asAbsent.body, field, 'absent') });
        if (route.optional.includes(field)) assert.equal(nullAnswer.status, route.ok, `${field}: null → ${nullAnswer.status} ${nullAnswer.text.slice(0, 300)}`);
        assert.equal(answerOf(nullAnswer), answerOf(absentAnswer), `${field}: null answers as its absence`);
      }
    });
  }

  it('when Go Client4 patches the config with null for every unset key, then only the set key changes', async () => {
    const before = (await raw(targetUrl, 'GET', '/api/v4/config', { token: f.admin.token })).json as Record<string, Json>;
    const nulls = (value: unknown): unknown => (value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, nulls(v)])) : null);
    const patch = nulls(before) as Record<string, Json>;
    const wanted = before.ServiceSettings?.SessionCacheInMinutes === 11 ? 12 : 11;
    (patch.ServiceSettings as Json).SessionCacheInMinutes = wanted;
    const res = await raw(targetUrl, 'PUT', '/api/v4/config/patch', { token: f.admin.token, body: patch });
    assert.equal(res.status, 200, res.text.slice(0, 300));
    const after = (await raw(targetUrl, 'GET', '/api/v4/config', { token: f.admin.token })).json as Record<string, Json>;
    assert.equal(after.ServiceSettings?.SessionCacheInMinutes, wanted);
    (after.ServiceSettings as Json).SessionCacheInMinutes = before.ServiceSettings?.SessionCacheInMinutes;
    assert.deepEqual(after, before);
    await patchConfig(f.admin.client, { ServiceSettings: { SessionCacheInMinutes: before.ServiceSettings?.SessionCacheInMinutes } });
  });

  it('when PUT /config sends the whole document with a key as null, then that key takes its default (SetDefaults)', async () => {
    await patchConfig(f.admin.client, { ServiceSettings: { SessionCacheInMinutes: 13 } });
    const doc = (await raw(targetUrl, 'GET', '/api/v4/config', { token: f.admin.token })).json as Record<string, Json>;
    (doc.ServiceSettings as Json).SessionCacheInMinutes = null;
    const res = await raw(targetUrl, 'PUT', '/api/v4/config', { token: f.admin.token, body: doc });
    assert.equal(res.status, 200, res.text.slice(0, 300));
    assert.equal(((res.json as Record<string, Json>).ServiceSettings as Json).SessionCacheInMinutes, 10);
  });

  it('when mattermostdriver logs in (it always sends "token": null), then it works', async () => {
    const res = await raw(targetUrl, 'POST', '/api/v4/users/login', { body: { login_id: f.user.username, password: f.user.password, token: null } });
    assert.equal(res.status, 200, res.text.slice(0, 300));
  });
});
