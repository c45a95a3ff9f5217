import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createIncomingHook, sendToHook, waitForPost } from './support/incoming-hooks';
import { givenIntegrationWorld, type IntegrationWorld } from './support/integration-world';
import { assertAppError, assertJson, raw } from './support/http';
import { newChannel, postIn } from './support/posts-fixtures';

describe('incoming hooks edit and delete their own posts', { timeout: 300_000 }, () => {
  let world: IntegrationWorld;

  before(async () => {
    world = await givenIntegrationWorld();
  });
  after(() => world?.stop());

  const hookPost = async (key: string, channelId: string, text: string): Promise<string> => {
    assert.equal((await sendToHook(world.target.url, key, { text })).status, 200);
    return (await waitForPost(world.target.url, world.admin.token, channelId, (p) => p.message === text)).id;
  };
  const put = (key: string, postId: string, body: unknown) => raw(world.target.url, 'PUT', `/hooks/${key}/posts/${postId}`, { body });

  it('when a hook edits its post, then the message and attachments change, edit_at is set, and outgoing post_edited follows', async () => {
    const hook = await createIncomingHook(world.target.url, world.admin.token, { channel_id: world.channel.id, display_name: 'Builds' });
    const listener = await raw(world.target.url, 'POST', '/api/v4/hooks/outgoing', {
      token: world.admin.token,
      body: { team_id: world.team.id, channel_id: world.channel.id, callback_urls: [`${world.receiver.url}/edits`], content_type: 'application/json', event_types: ['post_edited', 'post_deleted'] },
    });
    assertJson(listener, 201);
    const postId = await hookPost(hook.id, world.channel.id, 'Build #7 running');
    const edited = await put(hook.id, postId, { text: 'Build #7 passed', attachments: [{ text: 'all green', color: '#00ff00' }] });
    assertJson(edited, 200);
    const post = edited.json as { id: string; message: string; edit_at: number; props: Record<string, unknown> };
    assert.equal(post.id, postId);
    assert.equal(post.message, 'Build #7 passed');
    assert.ok(post.edit_at > 0);
    assert.equal(post.props.from_webhook, 'true');
    assert.equal((post.props.attachments as { text: string }[])[0]?.text, 'all green');
    const read = await raw(world.target.url, 'GET', `/api/v4/posts/${postId}`, { token: world.admin.token });
    assert.equal((read.json as { message: string }).message, 'Build #7 passed');
    const event = await world.receiver.waitFor((r) => r.path === '/edits' && r.body.includes('"post_edited"') && r.body.includes(postId));
    assert.equal((JSON.parse(event.body) as { data: { post: { message: string } } }).data.post.message, 'Build #7 passed');
    const deleted = await raw(world.target.url, 'DELETE', `/hooks/${hook.id}/posts/${postId}`);
    assertJson(deleted, 200);
    assert.deepEqual(deleted.json, { status: 'OK' });
    assert.equal((await raw(world.target.url, 'GET', `/api/v4/posts/${postId}`, { token: world.admin.token })).status, 404);
    await world.receiver.waitFor((r) => r.path === '/edits' && r.body.includes('"post_deleted"') && r.body.includes(postId));
    // A deleted post is gone for the hook too.
    assertAppError(await put(hook.id, postId, { text: 'again' }), 404, 'api.webhook.incoming.post_not_found.app_error');
  });

  it("when a hook names another hook's post, a user's post, an unknown id or a locked hook's post elsewhere, then it is 404; a bad key or body is refused", async () => {
    const mine = await createIncomingHook(world.target.url, world.admin.token, { channel_id: world.channel.id });
    const theirs = await createIncomingHook(world.target.url, world.admin.token, { channel_id: world.channel.id });
    const theirPost = await hookPost(theirs.id, world.channel.id, 'their post');
    const userPost = await postIn(world.member, world.channel.id, 'a user post');
    for (const id of [theirPost, userPost.id, 'x'.repeat(26), 'not-an-id']) {
      assertAppError(await put(mine.id, id, { text: 'hijack' }), 404, 'api.webhook.incoming.post_not_found.app_error');
      assertAppError(await raw(world.target.url, 'DELETE', `/hooks/${mine.id}/posts/${id}`), 404, 'api.webhook.incoming.post_not_found.app_error');
    }
    assert.equal((await raw(world.target.url, 'GET', `/api/v4/posts/${theirPost}`, { token: world.admin.token })).status, 200);
    // A locked hook that posted elsewhere before it was locked: only posts in its channel.
    const other = await newChannel(world.admin, world.team, 'O');
    const wandering = await createIncomingHook(world.target.url, world.admin.token, { channel_id: world.channel.id });
    assert.equal((await sendToHook(world.target.url, wandering.id, { text: 'elsewhere', channel: other.name })).status, 200);
    const elsewhere = (await waitForPost(world.target.url, world.admin.token, other.id, (p) => p.message === 'elsewhere')).id;
    const lock = await raw(world.target.url, 'PUT', `/api/v4/hooks/incoming/${wandering.id}`, { token: world.admin.token, body: { id: wandering.id, channel_id: world.channel.id, channel_locked: true, display_name: '' } });
    assert.ok(lock.status < 300, lock.text);
    assert.equal((lock.json as { channel_locked: boolean }).channel_locked, true);
    assertAppError(await put(wandering.id, elsewhere, { text: 'moved' }), 404, 'api.webhook.incoming.post_not_found.app_error');
    assertAppError(await put('unknownkey123', theirPost, { text: 'x' }), 400, 'web.incoming_webhook.invalid.app_error');
    const own = await hookPost(mine.id, world.channel.id, 'mine to keep');
    assertAppError(await put(mine.id, own, { text: '' }), 400, 'web.incoming_webhook.text.app_error');
  });
});
