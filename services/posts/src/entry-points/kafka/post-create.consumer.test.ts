import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { envelope, Topics, type CreatePostCommandPayload } from '@switchyard/contracts';
import { newId } from '@switchyard/ids';
import { postsHarness, type PostsHarness } from '../../test-support/http-harness';
import { until } from '../../test-support/until';

async function send(h: PostsHarness, payload: unknown, key = 'k'): Promise<void> {
  await h.bus.publish(Topics.postsCommands, [{ key, value: envelope('post.create', payload) }]);
}

function command(channelId: string, userId: string, overrides: Partial<CreatePostCommandPayload['post']> = {}): CreatePostCommandPayload {
  return {
    post: { id: newId(), channel_id: channelId, user_id: userId, message: 'from a hook', type: '', props: { from_webhook: 'true', override_username: 'robot' }, root_id: '', ...overrides },
    source: 'incoming_webhook',
    hook_id: newId(),
  };
}

describe('posts.commands consumer', () => {
  it('when a post.create arrives twice with the same post id, then one post exists and one post.created is published', async () => {
    const h = await postsHarness();
    try {
      const team = h.team();
      const alice = h.user({ teamId: team });
      const channel = await h.channel(alice, team);
      const cmd = command(channel.id, alice.id, {
        props: { from_webhook: 'true', override_username: 'robot', attachments: [{ color: 'good', actions: [{ name: 'Go', integration: { url: 'http://x', context: { k: 1 } } }], fields: [{ title: 't', value: 2 }] }] },
      });
      await send(h, cmd, channel.id);
      await send(h, { ...cmd, post: { ...cmd.post, message: 'changed' } }, channel.id);
      // A sentinel on the same key (one partition, handled in order): once it exists, both copies were handled.
      const sentinel = command(channel.id, alice.id, { message: 'sentinel' });
      await send(h, sentinel, channel.id);
      await until(async () => (await h.repositories.posts.findById(sentinel.post.id)) !== undefined);
      await h.app.outbox.idle();
      const stored = await h.repositories.posts.findById(cmd.post.id);
      assert.equal(stored?.message, 'from a hook');
      assert.equal(stored?.props.from_webhook, 'true');
      assert.equal(stored?.props.override_username, 'robot');
      const attachment = (stored?.props.attachments as Record<string, unknown>[])[0];
      assert.equal(attachment?.color, '#2eb67d');
      assert.deepEqual(attachment?.fields, [{ title: 't', value: '2', short: false }]);
      const action = (attachment?.actions as Record<string, unknown>[])[0];
      assert.match(String(action?.id), /^[a-z0-9]{26}$/);
      assert.deepEqual(action?.integration, { url: 'http://x', context: { k: 1 } });
      const created = h.sink.of(Topics.postsEvents, 'post.created').filter((e) => (e.value.payload.post as { id: string }).id === cmd.post.id);
      assert.equal(created.length, 1);
      assert.equal(created[0]?.value.id, `${cmd.post.id}:created`);
      assert.equal(created[0]?.value.payload.source, 'incoming_webhook');
      assert.equal(created[0]?.value.payload.from_webhook, true);
    } finally {
      await h.stop();
    }
  });

  it('when the author is a bot, then from_bot is set; an unknown or archived channel is refused with post.refused, an invalid command is skipped, and later commands still work', async () => {
    const h = await postsHarness();
    try {
      const team = h.team();
      const alice = h.user({ teamId: team });
      const bot = h.user({ isBot: true, teamId: team });
      const channel = await h.channel(alice, team);
      const archived = await h.channel(alice, team);
      assert.equal((await h.request('DELETE', `/api/v4/channels/${archived.id}`, { as: alice })).statusCode, 200);
      const unknown = command(newId(), alice.id);
      const toArchived = command(archived.id, alice.id);
      await send(h, unknown);
      await send(h, toArchived);
      await send(h, { post: { id: 'short' } });
      await h.bus.publish(Topics.postsCommands, [{ key: 'k', value: { not: 'an envelope' } }]);
      await send(h, command(channel.id, alice.id, { message: 'x'.repeat(16384) }));
      const fromBot = command(channel.id, bot.id);
      await send(h, fromBot);
      await until(async () => (await h.repositories.posts.findById(fromBot.post.id)) !== undefined);
      assert.equal((await h.repositories.posts.findById(fromBot.post.id))?.props.from_bot, 'true');
      assert.equal(await h.repositories.posts.findById(unknown.post.id), undefined);
      assert.equal(await h.repositories.posts.findById(toArchived.post.id), undefined);
      const refused = h.sink.of(Topics.postsEvents, 'post.refused').map((e) => e.value.payload as { post_id: string; error: { id: string; status_code: number } });
      const refusal = (id: string) => refused.find((r) => r.post_id === id)?.error;
      assert.equal(refusal(unknown.post.id)?.status_code, 404);
      assert.equal(refusal(toArchived.post.id)?.id, 'api.post.create_post.can_not_post_to_deleted.error');
      assert.equal(refused.filter((r) => r.post_id === fromBot.post.id).length, 0);
    } finally {
      await h.stop();
    }
  });
});
