import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { envelope, Topics, type CreatePostCommandPayload } from '@switchyard/contracts';
import { newId } from '@switchyard/ids';
import { buildStoredPost } from '../../domain/posts/store-post';
import { postsHarness, type Caller, type PostsHarness } from '../../test-support/http-harness';
import { until } from '../../test-support/until';

describe('the incoming hook key never reaches a client', () => {
  let h: PostsHarness;
  let alice: Caller;
  let channelId: string;
  before(async () => {
    h = await postsHarness();
    const team = h.team();
    alice = h.user({ teamId: team });
    channelId = (await h.channel(alice, team)).id;
  });
  after(async () => h.stop());

  /** Every client answer that can carry the post: single, lists, thread, edit, patch, internal. */
  async function clientAnswers(postId: string): Promise<string[]> {
    const answers = [
      await h.request('GET', `/api/v4/posts/${postId}`, { as: alice }),
      await h.request('GET', `/api/v4/channels/${channelId}/posts`, { as: alice }),
      await h.request('GET', `/api/v4/channels/${channelId}/posts?since=1`, { as: alice }),
      await h.request('GET', `/api/v4/posts/${postId}/thread`, { as: alice }),
      await h.request('PUT', `/api/v4/posts/${postId}/patch`, { as: alice, body: { message: 'patched', props: { from_webhook: 'true', card: 'c' } } }),
      await h.request('PUT', `/api/v4/posts/${postId}`, { as: alice, body: { id: postId, message: 'edited', props: { from_webhook: 'true' } } }),
      await h.request('GET', `/internal/v1/posts/${postId}`, { internal: 'outgoing-dispatch' }),
    ];
    for (const res of answers) assert.equal(res.statusCode, 200, `${res.statusCode} ${res.body}`);
    return answers.map((res) => res.body);
  }

  async function react(postId: string): Promise<Record<string, unknown>> {
    const res = await h.request('POST', '/api/v4/reactions', { as: alice, body: { user_id: alice.id, post_id: postId, emoji_name: 'eyes' } });
    assert.equal(res.statusCode, 200, res.body);
    await h.app.outbox.idle();
    const event = h.sink.of(Topics.postsEvents, 'reaction.added').find((e) => (e.value.payload.post as { id: string }).id === postId);
    assert.ok(event, 'reaction.added published');
    return event.value.payload;
  }

  it('when a hook makes a post, then its key is stored beside the post: no answer or event post shows it; reaction events carry it outside the post', async () => {
    const hookKey = newId();
    const payload: CreatePostCommandPayload = {
      // An older producer still put the key in props: it is moved out too.
      post: { id: newId(), channel_id: channelId, user_id: alice.id, message: 'build ok', type: '', props: { from_webhook: 'true', incoming_webhook_id: hookKey }, root_id: '' },
      source: 'incoming_webhook',
      hook_id: hookKey,
    };
    await h.bus.publish(Topics.postsCommands, [{ key: channelId, value: envelope('post.create', payload) }]);
    await until(async () => (await h.repositories.posts.findById(payload.post.id)) !== undefined);
    const stored = await h.repositories.posts.findById(payload.post.id);
    assert.equal(stored?.incoming_hook_id, hookKey);
    assert.equal(stored?.props.incoming_webhook_id, undefined);
    await h.app.outbox.idle();
    for (const body of await clientAnswers(payload.post.id)) assert.ok(!body.includes(hookKey), `key leaked in ${body}`);
    const created = h.sink.of(Topics.postsEvents).filter((e) => (e.value.payload.post as { id: string }).id === payload.post.id);
    assert.ok(created.length >= 2, 'created and updated events');
    for (const event of created) assert.ok(!JSON.stringify(event.value.payload.post).includes(hookKey));
    const reaction = await react(payload.post.id);
    assert.equal(reaction.incoming_hook_id, hookKey);
    assert.ok(!JSON.stringify(reaction.post).includes(hookKey));
    assert.equal((await h.repositories.posts.findById(payload.post.id))?.incoming_hook_id, hookKey, 'edits keep it');
  });

  it('when a post stored before the fix has the key in props, then every read strips it, edits keep it stored, and reaction events still carry it', async () => {
    const hookKey = newId();
    const legacy = buildStoredPost(
      { id: newId(), channel_id: channelId, user_id: alice.id, message: 'old hook post', type: '', props: { from_webhook: 'true', incoming_webhook_id: hookKey }, root_id: '', file_ids: [], pending_post_id: '', create_at: h.clock.now() },
      'incoming_webhook',
    );
    await h.repositories.posts.insert({ ...legacy, pending_events: [] });
    for (const body of await clientAnswers(legacy.id)) assert.ok(!body.includes(hookKey), `key leaked in ${body}`);
    assert.equal((await h.repositories.posts.findById(legacy.id))?.props.incoming_webhook_id, hookKey);
    const reaction = await react(legacy.id);
    assert.equal(reaction.incoming_hook_id, hookKey);
    assert.ok(!JSON.stringify(reaction.post).includes(hookKey));
  });

  it('when a client sets incoming_webhook_id in props, then it is not stored and reaction events name no hook', async () => {
    const spoofed = newId();
    const res = await h.post(alice, channelId, { props: { from_webhook: 'true', incoming_webhook_id: spoofed } });
    assert.equal(res.statusCode, 201, res.body);
    assert.ok(!res.body.includes(spoofed));
    const postId = (res.json() as { id: string }).id;
    assert.equal((await h.repositories.posts.findById(postId))?.props.incoming_webhook_id, undefined);
    const edit = await h.request('PUT', `/api/v4/posts/${postId}/patch`, { as: alice, body: { props: { incoming_webhook_id: spoofed } } });
    assert.equal(edit.statusCode, 200, edit.body);
    assert.equal((await h.repositories.posts.findById(postId))?.props.incoming_webhook_id, undefined);
    const reaction = await react(postId);
    assert.equal(reaction.incoming_hook_id, undefined);
  });
});
