import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Topics } from '@switchyard/contracts';
import { newId } from '@switchyard/ids';
import { postsHarness, type Caller, type PostsHarness } from '../../test-support/http-harness';

describe('POST /api/v4/posts/ephemeral', () => {
  let h: PostsHarness;
  let admin: Caller;
  let member: Caller;
  let channelId: string;
  before(async () => {
    h = await postsHarness();
    const team = h.team();
    admin = h.user({ roles: 'system_user system_admin', teamId: team });
    member = h.user({ teamId: team });
    channelId = (await h.channel(member, team)).id;
  });
  after(async () => h.stop());

  const attachments = [{ text: 'pick', actions: [{ name: 'Go', integration: { url: 'http://127.0.0.1:9/act', context: { secret: 's' } } }] }];

  it('when a system admin sends one, then 201 with a system_ephemeral Post by the caller, action ids generated, integrations stripped, nothing stored, only the ephemeral.post for the target published', async () => {
    const before = h.sink.published.length;
    const res = await h.request('POST', '/api/v4/posts/ephemeral', {
      as: admin,
      body: { user_id: member.id, post: { channel_id: channelId, message: 'only you', type: 'custom_x', user_id: member.id, props: { attachments, k: 'v' } } },
    });
    assert.equal(res.statusCode, 201);
    const post = res.json();
    assert.match(post.id, /^[a-z0-9]{26}$/);
    assert.equal(post.type, 'system_ephemeral');
    assert.equal(post.user_id, admin.id);
    assert.equal(post.channel_id, channelId);
    assert.equal(post.message, 'only you');
    assert.equal(post.create_at, h.clock.now());
    assert.equal(post.props.k, 'v');
    const action = post.props.attachments[0].actions[0];
    assert.match(action.id, /^[a-z0-9]{26}$/);
    assert.equal('integration' in action, false);
    assert.equal('pending_events' in post, false);
    assert.deepEqual(post.file_ids, []);
    assert.equal(await h.repositories.posts.findById(post.id), undefined);
    const published = h.sink.published.slice(before);
    assert.deepEqual(published.map((p) => [p.topic, p.key, p.value.type]), [[Topics.realtimeEvents, member.id, 'ephemeral.post']]);
    const payload = published[0]?.value.payload as { user_id: string; post: Record<string, unknown> & { props: { attachments: { actions: Record<string, unknown>[] }[] } } };
    assert.equal(payload.user_id, member.id);
    assert.equal(payload.post.id, post.id);
    assert.equal(payload.post.type, 'system_ephemeral');
    assert.equal('integration' in (payload.post.props.attachments[0]?.actions[0] ?? {}), false);
  });

  it('when the caller lacks create_post_ephemeral, then 403 api.context.permissions.app_error', async () => {
    const res = await h.request('POST', '/api/v4/posts/ephemeral', { as: member, body: { user_id: member.id, post: { channel_id: channelId, message: 'x' } } });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().id, 'api.context.permissions.app_error');
  });

  it('when the body is malformed, then 400 invalid_body_param naming the field (the reference\'s SetInvalidParam), never a 500', async () => {
    const cases: [unknown, string][] = [
      [{ post: { channel_id: channelId } }, 'user_id'],
      [{ user_id: 'nope', post: { channel_id: channelId } }, 'user_id'],
      [{ user_id: member.id }, 'post'],
      [{ user_id: member.id, post: 'text' }, 'post'],
      [{ user_id: member.id, post: { message: 'no channel' } }, 'post.channel_id'],
      [{ user_id: member.id, post: { channel_id: channelId, props: { attachments: 'not-an-array' } } }, 'props.attachments'],
      [[], 'body'],
    ];
    for (const [body, field] of cases) {
      const res = await h.request('POST', '/api/v4/posts/ephemeral', { as: admin, body });
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal(res.json().id, 'api.context.invalid_body_param.app_error', JSON.stringify(body));
      assert.match(res.json().message, new RegExp(field.replace('.', '\\.')), JSON.stringify(body));
    }
    assert.equal((await h.request('POST', '/api/v4/posts/ephemeral', { as: admin, raw: '{"user_id":' })).statusCode, 400);
    assert.equal((await h.request('POST', '/api/v4/posts/ephemeral', { body: { user_id: member.id, post: { channel_id: channelId } } })).statusCode, 401);
  });

  it('when the client sends a post id, then it is kept (an integration may replace its ephemeral post)', async () => {
    const id = newId();
    const res = await h.request('POST', '/api/v4/posts/ephemeral', { as: admin, body: { user_id: member.id, post: { id, channel_id: channelId, message: 'again' } } });
    assert.equal(res.statusCode, 201);
    assert.equal(res.json().id, id);
  });
});
