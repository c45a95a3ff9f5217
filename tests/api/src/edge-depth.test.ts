import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import type { Post } from '@mattermost/types/posts';
import type { Team } from '@mattermost/types/teams';
import { uniqueName, type AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, raw, type RawResponse } from './support/http';
import { channelPosts, createIncomingHook, sendToHook } from './support/incoming-hooks';
import { asActor, newChannel, newTeam, postIn } from './support/posts-fixtures';
import type { Target } from './support/target';

const LIMIT = 64;

/** `{"a":{"a":…{"leaf":1}…}}` nesting `depth` objects. */
function nested(depth: number): unknown {
  let value: unknown = { leaf: 1 };
  for (let i = 1; i < depth; i += 1) value = { a: value };
  return value;
}

/**
 * One JSON nesting limit (64, as incoming webhooks had) for every JSON body of every route, checked
 * before anything is stored: a post with props nested 2,000 deep used to be stored, then every read of
 * its channel answered 500.
 */
describe('JSON nesting limit on every body-taking route family', { timeout: 180_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let channel: Channel;
  let post: Post;
  let hookKey: string;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    channel = await newChannel(asActor(admin), team);
    post = await postIn(admin, channel.id, 'depth target');
    hookKey = (await createIncomingHook(target.url, admin.token, { channel_id: channel.id, display_name: 'depth' })).id;
  });
  after(async () => {
    await target?.stop();
  });

  const tooDeep = (): unknown => nested(LIMIT + 1);

  it('when any route gets a body nested deeper than 64, then 400 with a clear error and nothing is stored', async () => {
    const deep = tooDeep();
    const routes: Array<[string, string, unknown]> = [
      ['POST', '/api/v4/users', { username: uniqueName('deep'), email: `${uniqueName('d')}@example.com`, password: 'Passw0rd-deep', props: deep }],
      ['POST', '/api/v4/users/login', { login_id: 'sysadmin', password: 'x', extra: deep }],
      ['PUT', '/api/v4/config/patch', { PluginSettings: { Plugins: deep } }],
      ['POST', '/api/v4/bots', { username: uniqueName('deepbot'), description: 'x', extra: deep }],
      ['POST', '/api/v4/teams', { name: uniqueName('deep'), display_name: 'Deep', type: 'O', extra: deep }],
      ['POST', '/api/v4/channels', { team_id: team.id, name: uniqueName('deep'), display_name: 'Deep', type: 'O', extra: deep }],
      ['POST', '/api/v4/posts', { channel_id: channel.id, message: 'too deep', props: deep }],
      ['PUT', `/api/v4/posts/${post.id}/patch`, { props: deep }],
      ['PUT', `/api/v4/posts/${post.id}`, { id: post.id, message: 'too deep edit', props: deep }],
      ['POST', '/api/v4/reactions', { user_id: admin.user.id, post_id: post.id, emoji_name: 'smile', extra: deep }],
      ['POST', '/api/v4/hooks/incoming', { channel_id: channel.id, display_name: 'deep', extra: deep }],
      ['POST', '/api/v4/hooks/outgoing', { team_id: team.id, channel_id: channel.id, display_name: 'deep', trigger_words: ['x'], callback_urls: ['http://127.0.0.1:1/x'], extra: deep }],
      ['POST', `/api/v4/posts/${post.id}/actions/abc`, { selected_option: deep }],
      ['POST', '/api/v4/actions/dialogs/open', { trigger_id: 'x', url: 'http://127.0.0.1:1/x', dialog: deep }],
      ['POST', '/api/v4/commands', { team_id: team.id, trigger: uniqueName('deep'), url: 'http://127.0.0.1:1/x', method: 'P', extra: deep }],
      ['POST', '/api/v4/commands/execute', { command: '/deep', channel_id: channel.id, extra: deep }],
      ['POST', `/api/v4/users/${admin.user.id}/tokens`, { description: 'deep', extra: deep }],
      ['PUT', `/api/v4/users/${admin.user.id}/roles`, { roles: 'system_user system_admin', extra: deep }],
    ];
    for (const [method, path, body] of routes) {
      const res = await raw(target.url, method, path, { token: admin.token, body });
      assertAppError(res, 400, 'api.context.invalid_body_param.app_error');
      assert.match(String(res.json.message ?? ''), /nests deeper than 64 levels/, `${method} ${path}`);
    }
    const hook: RawResponse = await sendToHook(target.url, hookKey, { text: 'too deep hook', props: deep });
    assert.equal(hook.status, 400, hook.text);
    const messages = (await channelPosts(target.url, admin.token, channel.id)).map((p) => p.message);
    assert.ok(!messages.includes('too deep') && !messages.includes('too deep hook') && !messages.includes('too deep edit'), messages.join(','));
    assert.equal((await raw(target.url, 'GET', `/api/v4/channels/${channel.id}/posts`, { token: admin.token })).status, 200, 'the channel still reads');
  });

  it('when a body nests exactly 64 levels, then it is accepted and the channel still reads', async () => {
    const res = await raw(target.url, 'POST', '/api/v4/posts', { token: admin.token, body: { channel_id: channel.id, message: 'deep enough', props: { card: nested(LIMIT - 2) } } });
    assert.equal(res.status, 201, res.text);
    const read = await raw(target.url, 'GET', `/api/v4/channels/${channel.id}/posts`, { token: admin.token });
    assert.equal(read.status, 200, read.text.slice(0, 200));
  });

  it('when a JSON body of 2,000 levels or an unclosed 100,000-bracket array arrives, then 400 (not 500, not a hang)', async () => {
    for (const rawBody of [JSON.stringify({ channel_id: channel.id, message: 'x', props: nested(2000) }), '['.repeat(100_000)]) {
      assertAppError(await raw(target.url, 'POST', '/api/v4/posts', { token: admin.token, rawBody }), 400, 'api.context.invalid_body_param.app_error');
    }
  });
});
