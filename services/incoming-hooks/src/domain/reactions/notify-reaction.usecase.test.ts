import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { InternalChannel, ReactionEventPayload, WirePost } from '@switchyard/contracts';
import { newId } from '@switchyard/ids';
import { world } from '../../test-support/domain-harness';
import { notifyReaction } from './notify-reaction.usecase';

/** A reaction event; `hookId` is the event's incoming_hook_id (posts sets it for posts a hook made). */
function reaction(post: Partial<WirePost> & { id: string; user_id: string; props: Record<string, unknown>; hookId?: string }, channel: InternalChannel, reactor: { id: string; username: string }, emoji = 'thumbsup'): ReactionEventPayload {
  const { hookId, ...wire } = post;
  const full = { create_at: 1, update_at: 1, edit_at: 0, delete_at: 0, is_pinned: false, channel_id: channel.id, root_id: '', original_id: '', message: 'Build #42 failed', type: '', hashtags: '', file_ids: [], pending_post_id: '', reply_count: 0, last_reply_at: 0, participants: null, ...wire } as WirePost;
  return { reaction: { user_id: reactor.id, post_id: post.id, emoji_name: emoji, create_at: 5 }, post: full, channel, team: { id: channel.team_id, name: 'team' }, reactor: { ...reactor, is_bot: false }, ...(hookId ? { incoming_hook_id: hookId } : {}) };
}

describe('reaction notifications', () => {
  it('when someone reacts to a post of a hook with reaction_notifications, then the system bot DMs the owner naming emoji, reactor, channel and post', async () => {
    const w = world();
    const bot = w.users.add('switchyard', { isBot: true });
    const hook = await w.hook({ reactionNotifications: true, displayName: 'Builds' });
    const postId = newId();
    const sent = await notifyReaction(w.deps, reaction({ id: postId, user_id: hook.userId, props: { from_webhook: 'true' }, hookId: hook.id }, w.town, { id: w.member.userId, username: 'member' }, 'eyes'));
    assert.equal(sent, true);
    const [batch] = w.commands.batches;
    assert.ok(batch);
    assert.equal(batch.source, 'system');
    const [dm] = batch.posts;
    assert.ok(dm);
    assert.equal(dm.user_id, bot.id);
    const channel = w.channels.channels.get(dm.channel_id);
    assert.equal(channel?.type, 'D');
    assert.equal(channel?.name, [bot.id, hook.userId].sort().join('__'));
    assert.match(dm.message, /:eyes:/);
    assert.match(dm.message, /@member/);
    assert.match(dm.message, /~town-square/);
    assert.ok(dm.message.includes(postId));
  });

  it('when the same reaction event is delivered twice, then both commands carry the same post id (posts drops the repeat)', async () => {
    const w = world();
    w.users.add('switchyard', { isBot: true });
    const hook = await w.hook({ reactionNotifications: true });
    const event = reaction({ id: newId(), user_id: hook.userId, props: { from_webhook: 'true' }, hookId: hook.id }, w.town, { id: w.member.userId, username: 'member' });
    await notifyReaction(w.deps, event);
    await notifyReaction(w.deps, event);
    const ids = w.commands.posts.map((p) => p.id);
    assert.equal(ids.length, 2);
    assert.equal(ids[0], ids[1]);
  });

  it('when notifications are off, the post is not a webhook post, the hook is deleted or the author is not the owner, then nothing is sent', async () => {
    const w = world();
    w.users.add('switchyard', { isBot: true });
    const quiet = await w.hook({ reactionNotifications: false });
    const loud = await w.hook({ reactionNotifications: true });
    const gone = await w.hook({ reactionNotifications: true, deleteAt: 5 });
    const reactor = { id: w.member.userId, username: 'member' };
    const cases = [
      reaction({ id: newId(), user_id: quiet.userId, props: { from_webhook: 'true' }, hookId: quiet.id }, w.town, reactor),
      reaction({ id: newId(), user_id: loud.userId, props: {}, hookId: loud.id }, w.town, reactor),
      reaction({ id: newId(), user_id: loud.userId, props: { from_webhook: 'true' } }, w.town, reactor),
      reaction({ id: newId(), user_id: gone.userId, props: { from_webhook: 'true' }, hookId: gone.id }, w.town, reactor),
      reaction({ id: newId(), user_id: w.member.userId, props: { from_webhook: 'true' }, hookId: loud.id }, w.town, reactor),
      // The key in the post's props (a client could write one) is never trusted.
      reaction({ id: newId(), user_id: loud.userId, props: { from_webhook: 'true', incoming_webhook_id: loud.id } }, w.town, reactor),
    ];
    for (const event of cases) assert.equal(await notifyReaction(w.deps, event), false);
    assert.equal(w.commands.batches.length, 0);
  });

  it('when a template hook\'s post (made by its integration bot) gets a reaction, then the owner is told; another bot\'s post is not the hook\'s', async () => {
    const w = world();
    w.users.add('switchyard', { isBot: true });
    const hook = await w.hook({ reactionNotifications: true, transform: { template: 'github' } });
    const github = await w.users.integrationSender('github');
    const reactor = { id: w.member.userId, username: 'member' };
    assert.equal(await notifyReaction(w.deps, reaction({ id: newId(), user_id: github.userId, props: { from_webhook: 'true' }, hookId: hook.id }, w.town, reactor)), true);
    const gitlab = await w.users.integrationSender('gitlab');
    assert.equal(await notifyReaction(w.deps, reaction({ id: newId(), user_id: gitlab.userId, props: { from_webhook: 'true' }, hookId: hook.id }, w.town, reactor)), false);
  });

  it('when an ordinary user holds the system bot\'s name, then the DM comes from that user (as the requirements say for an integration\'s bot)', async () => {
    const w = world();
    const squatter = w.users.add('switchyard');
    const hook = await w.hook({ reactionNotifications: true });
    const sent = await notifyReaction(w.deps, reaction({ id: newId(), user_id: hook.userId, props: { from_webhook: 'true' }, hookId: hook.id }, w.town, { id: w.member.userId, username: 'member' }));
    assert.equal(sent, true);
    assert.equal(w.commands.batches[0]?.posts[0]?.user_id, squatter.id);
    assert.deepEqual(w.commands.batches[0]?.posts[0]?.props, {});
  });

  it('when the system bot does not exist, then nothing is sent', async () => {
    const w = world();
    const hook = await w.hook({ reactionNotifications: true });
    const sent = await notifyReaction(w.deps, reaction({ id: newId(), user_id: hook.userId, props: { from_webhook: 'true' }, hookId: hook.id }, w.town, { id: w.member.userId, username: 'member' }));
    assert.equal(sent, false);
  });
});
