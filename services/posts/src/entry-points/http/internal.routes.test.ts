import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PostsInternalPaths, type CreatePostCommandPayload, type InternalChannel, type InternalPostView } from '@switchyard/contracts';
import { newId } from '@switchyard/ids';
import { assertError } from '../../test-support/assert-error';
import { postsHarness, type Caller, type PostsHarness } from '../../test-support/http-harness';

describe('posts internal API', () => {
  let h: PostsHarness;
  let team: string;
  let alice: Caller;
  let channel: { id: string; name: string };

  before(async () => {
    h = await postsHarness();
    team = h.team();
    alice = h.user({ teamId: team });
    channel = await h.channel(alice, team);
  });
  after(() => h.stop());

  it('when called without a service credential, or with a user or bot identity only, then 401 on every path', async () => {
    for (const [method, path] of [
      ['GET', PostsInternalPaths.channel(channel.id)],
      ['GET', PostsInternalPaths.channelByName(team, channel.name)],
      ['POST', PostsInternalPaths.directChannel],
      ['GET', PostsInternalPaths.channelMember(channel.id, alice.id)],
      ['GET', PostsInternalPaths.channelMemberIds(channel.id)],
      ['GET', PostsInternalPaths.post(channel.id)],
      ['PUT', PostsInternalPaths.updatePost(channel.id)],
      ['POST', PostsInternalPaths.createPost],
      ['POST', PostsInternalPaths.defaultChannels(team, alice.id)],
    ] as const) {
      const res = await h.request(method, path, { body: {} });
      assertError(res, 401, 'api.context.session_expired.app_error', `${method} ${path}`);
      const bot = h.user({ isBot: true, teamId: team });
      for (const caller of [alice, bot, { ...alice, roles: 'system_user system_admin' }]) {
        const asUser = await h.request(method, path, { as: caller, body: { message: 'overwritten' } });
        assert.equal(asUser.statusCode, 401, `${method} ${path} as ${caller.roles}`);
        assert.equal((asUser.json() as { id: string }).id, 'api.context.session_expired.app_error');
      }
    }
  });

  it('when a service calls a route that does not name it, then 403 (posts are updated only by outgoing-dispatch)', async () => {
    const res = await h.request('PUT', PostsInternalPaths.updatePost(channel.id), { internal: 'incoming-hooks', body: { message: 'x' } });
    assert.equal(res.statusCode, 403);
    assert.equal((await h.request('GET', PostsInternalPaths.channel(channel.id), { internal: 'gateway' })).statusCode, 403);
    assert.equal((await h.request('GET', PostsInternalPaths.channel(channel.id), { internal: 'outgoing-dispatch' })).statusCode, 200);
  });

  it('when users-bots asks for a team member\'s default channels, then both exist and the user is in each once they answer, twice is harmless, an unknown team is 404 and no other service may ask', async () => {
    const fresh = h.team();
    const bob = h.user({ teamId: fresh });
    for (const round of [1, 2]) {
      const res = await h.request('POST', PostsInternalPaths.defaultChannels(fresh, bob.id), { internal: 'users-bots' });
      assert.equal(res.statusCode, 204, `round ${round}: ${res.body}`);
    }
    for (const name of ['town-square', 'off-topic']) {
      const found = await h.request('GET', PostsInternalPaths.channelByName(fresh, name), { internal: 'incoming-hooks' });
      assert.equal(found.statusCode, 200, name);
      const channelId = (found.json() as InternalChannel).id;
      assert.equal((await h.request('GET', PostsInternalPaths.channelMember(channelId, bob.id), { internal: 'incoming-hooks' })).statusCode, 200, `${name} member`);
    }
    const unknown = await h.request('POST', PostsInternalPaths.defaultChannels('z'.repeat(26), bob.id), { internal: 'users-bots' });
    assert.equal(unknown.statusCode, 404);
    assert.equal((unknown.json() as { id: string }).id, 'app.team.get.find.app_error');
    for (const other of ['incoming-hooks', 'outgoing-dispatch', 'realtime', 'gateway']) {
      assert.equal((await h.request('POST', PostsInternalPaths.defaultChannels(fresh, bob.id), { internal: other })).statusCode, 403, other);
    }
  });

  it('when a channel is read by id and by team + name, then the InternalChannel with team_name', async () => {
    const byId = (await h.request('GET', PostsInternalPaths.channel(channel.id), { internal: 'incoming-hooks' })).json() as InternalChannel;
    assert.equal(byId.id, channel.id);
    assert.equal(byId.team_id, team);
    assert.equal(byId.team_name, h.users.teams.get(team));
    assert.equal(byId.type, 'O');
    assert.equal(byId.delete_at, 0);
    const byName = await h.request('GET', PostsInternalPaths.channelByName(team, channel.name), { internal: 'incoming-hooks' });
    assert.deepEqual(byName.json(), byId);
    const missing = await h.request('GET', PostsInternalPaths.channel('a'.repeat(26)), { internal: 'incoming-hooks' });
    assert.equal(missing.statusCode, 404);
    assert.equal((missing.json() as { id: string }).id, 'app.channel.get.existing.app_error');
  });

  it('when the member ids of a channel are asked, then every member and nobody else; 404 for an unknown channel', async () => {
    const bob = h.user({ teamId: team });
    const carol = h.user({ teamId: team });
    const own = await h.channel(alice, team);
    const before = (await h.request('GET', PostsInternalPaths.channelMemberIds(own.id), { internal: 'realtime' })).json() as { user_ids: string[] };
    assert.deepEqual(before.user_ids, [alice.id]);
    const added = await h.request('POST', `/api/v4/channels/${own.id}/members`, { as: alice, body: { user_id: bob.id } });
    assert.equal(added.statusCode, 201);
    const after = (await h.request('GET', PostsInternalPaths.channelMemberIds(own.id), { internal: 'realtime' })).json() as { user_ids: string[] };
    assert.deepEqual([...after.user_ids].sort(), [alice.id, bob.id].sort());
    assert.ok(!after.user_ids.includes(carol.id));
    const missing = await h.request('GET', PostsInternalPaths.channelMemberIds('a'.repeat(26)), { internal: 'realtime' });
    assertError(missing, 404, 'app.channel.get.existing.app_error');
  });

  it('when a direct channel is asked twice, in either order, then the same <smaller>__<larger> channel with both members', async () => {
    const bob = h.user();
    const first = (await h.request('POST', PostsInternalPaths.directChannel, { internal: 'incoming-hooks', body: { user_ids: [alice.id, bob.id] } })).json() as InternalChannel;
    const second = (await h.request('POST', PostsInternalPaths.directChannel, { internal: 'incoming-hooks', body: { user_ids: [bob.id, alice.id] } })).json() as InternalChannel;
    assert.equal(first.id, second.id);
    assert.equal(first.type, 'D');
    assert.equal(first.name, [alice.id, bob.id].sort().join('__'));
    assert.equal(first.team_name, '');
    const member = await h.request('GET', PostsInternalPaths.channelMember(first.id, bob.id), { internal: 'incoming-hooks' });
    assert.deepEqual(member.json(), { channel_id: first.id, user_id: bob.id, roles: 'channel_user' });
    const none = await h.request('GET', PostsInternalPaths.channelMember(channel.id, bob.id), { internal: 'incoming-hooks' });
    assert.equal((none.json() as { id: string }).id, 'app.channel.get_member.missing.app_error');
    const bad = await h.request('POST', PostsInternalPaths.directChannel, { internal: 'incoming-hooks', body: { user_ids: [alice.id] } });
    assertError(bad, 400, 'api.context.invalid_body_param.app_error');
  });

  it('when the raw post view is read, then integrations are there; the public read strips them', async () => {
    const created = await h.post(alice, channel.id, { props: { attachments: [{ actions: [{ id: 'go', name: 'Go', integration: { url: 'http://127.0.0.1:1/x', context: { secret: 'c' } } }] }] } });
    const id = (created.json() as { id: string }).id;
    const view = (await h.request('GET', PostsInternalPaths.post(id), { internal: 'outgoing-dispatch' })).json() as InternalPostView;
    assert.equal(view.channel.id, channel.id);
    const action = ((view.post.props.attachments as Record<string, unknown>[])[0]?.actions as Record<string, unknown>[])[0];
    assert.deepEqual(action?.integration, { url: 'http://127.0.0.1:1/x', context: { secret: 'c' } });
    assert.equal('pending_events' in view.post, false);
    const pub = await h.request('GET', `/api/v4/posts/${id}`, { as: alice });
    assert.ok(!pub.body.includes('integration'));
  });

  it('when an integration updates a post, then props are replaced except the integration-owned keys, and attachments are normalised', async () => {
    const bot = h.user({ isBot: true, teamId: team });
    await h.join(channel.id, bot, alice);
    const created = await h.post(bot, channel.id, { message: 'press', props: { from_webhook: 'true', override_username: 'hooky', keep: 'no' } });
    const id = (created.json() as { id: string }).id;
    const res = await h.request('PUT', PostsInternalPaths.updatePost(id), {
      internal: 'outgoing-dispatch',
      body: { message: 'pressed', props: { from_webhook: 'false', override_username: 'evil', attachments: [{ color: 'danger', text: 'done' }] } },
    });
    assert.equal(res.statusCode, 200, res.body);
    const post = res.json() as { message: string; props: Record<string, unknown>; edit_at: number };
    assert.equal(post.message, 'pressed');
    assert.equal(post.props.from_webhook, 'true');
    assert.equal(post.props.override_username, 'hooky');
    assert.equal(post.props.from_bot, 'true');
    assert.equal(post.props.keep, undefined);
    assert.equal((post.props.attachments as Record<string, unknown>[])[0]?.color, '#a30200');
    const missing = await h.request('PUT', PostsInternalPaths.updatePost('c'.repeat(26)), { internal: 'outgoing-dispatch', body: { message: 'x' } });
    assert.equal((missing.json() as { id: string }).id, 'app.post.get.app_error');
  });

  it('when outgoing-dispatch creates a reply post, then it is readable as soon as the call answers, a repeat changes nothing, and refusals are AppErrors', async () => {
    const bot = h.user({ isBot: true, teamId: team });
    const command: CreatePostCommandPayload = {
      post: { id: newId(), channel_id: channel.id, user_id: bot.id, message: 'reply', type: '', props: { from_webhook: 'true', attachments: [{ color: 'good', text: 't' }] }, root_id: '', create_at: 1_700_000_000_000 },
      source: 'outgoing_webhook',
      hook_id: newId(),
    };
    const created = await h.request('POST', PostsInternalPaths.createPost, { internal: 'outgoing-dispatch', body: command });
    assert.equal(created.statusCode, 201, created.body);
    const read = await h.request('GET', `/api/v4/posts/${command.post.id}`, { as: alice });
    assert.equal(read.statusCode, 200);
    const post = read.json() as { message: string; create_at: number; props: Record<string, unknown> };
    assert.equal(post.message, 'reply');
    assert.equal(post.create_at, 1_700_000_000_000);
    assert.equal(post.props.from_bot, 'true');
    assert.equal((post.props.attachments as Record<string, unknown>[])[0]?.color, '#2eb67d');
    const again = await h.request('POST', PostsInternalPaths.createPost, { internal: 'outgoing-dispatch', body: { ...command, post: { ...command.post, message: 'changed' } } });
    assert.equal(again.statusCode, 200);
    assert.equal((again.json() as { message: string }).message, 'reply');
    const notCaller = await h.request('POST', PostsInternalPaths.createPost, { internal: 'incoming-hooks', body: { ...command, post: { ...command.post, id: newId() } } });
    assert.equal(notCaller.statusCode, 403);
    const invalid = await h.request('POST', PostsInternalPaths.createPost, { internal: 'outgoing-dispatch', body: { post: { id: 'short' }, source: 'outgoing_webhook' } });
    assert.equal(invalid.statusCode, 400);
    const archived = await h.channel(alice, team);
    assert.equal((await h.request('DELETE', `/api/v4/channels/${archived.id}`, { as: alice })).statusCode, 200);
    const refused = await h.request('POST', PostsInternalPaths.createPost, { internal: 'outgoing-dispatch', body: { ...command, post: { ...command.post, id: newId(), channel_id: archived.id } } });
    assert.equal(refused.statusCode, 400);
    assert.equal((refused.json() as { id: string }).id, 'api.post.create_post.can_not_post_to_deleted.error');
  });
});
