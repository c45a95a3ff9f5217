import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { PostRepository } from '../../domain/ports';
import { aPost, anEvent, rejectsDuplicate, type Factory } from './fixtures';

/** Adapter seams of the suite: `keptParticipantsDropped` makes a root look as if stored before participants were kept on roots. */
export interface PostRepositoryContractOptions {
  readonly keptParticipantsDropped?: (repo: PostRepository, rootId: string) => Promise<void>;
}

export function postRepositoryContract(name: string, make: Factory<PostRepository>, options: PostRepositoryContractOptions = {}): void {
  describe(`PostRepository contract: ${name}`, () => {
    it('when a post is inserted, then it comes back exactly (props with dotted and $ keys, the internal hook id included); ids are unique', async () => {
      const repo = await make();
      const post = aPost({ metadata: { priority: { priority: 'urgent' } }, file_ids: ['f1'], incoming_hook_id: newId() });
      await repo.insert(post);
      assert.deepEqual(await repo.findById(post.id), post);
      assert.deepEqual(await repo.findByIds([newId(), post.id]), [post]);
      await rejectsDuplicate(() => repo.insert({ ...post, message: 'again' }), 'id');
      assert.equal(await repo.findById(newId()), undefined);
    });

    it('when several posts are inserted at once, then each new one comes back exactly, indexed like insert; ids stored before or earlier in the list are reported by position, not thrown, not overwritten', async () => {
      const repo = await make();
      const channelId = newId();
      const existing = aPost({ channel_id: channelId, create_at: 100 });
      await repo.insert(existing);
      const a = aPost({ channel_id: channelId, create_at: 101, pending_events: [anEvent('a')], incoming_hook_id: newId() });
      const b = aPost({ channel_id: channelId, create_at: 102, pending_post_id: 'pp-b', root_id: existing.id });
      const c = aPost({ channel_id: channelId, create_at: 103, pending_events: [anEvent('c')], metadata: { priority: { priority: 'important' } } });
      const result = await repo.insertMany([a, { ...existing, message: 'again' }, b, { ...a, message: 'copy' }, c]);
      assert.deepEqual(result.duplicates, [1, 3]);
      assert.deepEqual(await repo.findByIds([existing.id, a.id, b.id, c.id]), [existing, a, b, c]);
      const listed = await repo.list({ channelId, includeDeleted: false, skip: 0, limit: 10 });
      assert.deepEqual(listed.map((p) => p.id), [c.id, b.id, a.id, existing.id]);
      assert.deepEqual((await repo.withPendingEvents(10)).map((p) => p.id), [a.id, c.id]);
      assert.equal((await repo.findByPendingPostId(b.user_id, 'pp-b', 0))?.id, b.id);
      assert.deepEqual((await repo.listReplies(channelId, existing.id)).map((p) => p.id), [b.id]);
      assert.deepEqual(await repo.insertMany([]), { duplicates: [] });
      const d = aPost({ channel_id: channelId });
      assert.deepEqual(await repo.insertMany([d]), { duplicates: [] });
      assert.deepEqual((await repo.insertMany([d, a])).duplicates, [0, 1]);
      assert.deepEqual(await repo.findById(d.id), d);
    });

    it('when a pending_post_id is looked up, then only the same user within the window matches', async () => {
      const repo = await make();
      const post = aPost({ pending_post_id: 'p-1', create_at: 5_000 });
      await repo.insert(post);
      assert.equal((await repo.findByPendingPostId(post.user_id, 'p-1', 4_000))?.id, post.id);
      assert.equal(await repo.findByPendingPostId(post.user_id, 'p-1', 6_000), undefined);
      assert.equal(await repo.findByPendingPostId(newId(), 'p-1', 0), undefined);
    });

    it('when a post is updated with an event, then fields change and the outbox grows; clearing removes that event only', async () => {
      const repo = await make();
      const post = aPost({ pending_events: [anEvent('x', 'created')] });
      await repo.insert(post);
      const updated = await repo.update(post.id, { message: 'edited', props: { z: 1 }, update_at: 77 }, anEvent('x', 'updated'));
      assert.equal(updated?.message, 'edited');
      assert.deepEqual(updated?.props, { z: 1 });
      assert.deepEqual(updated?.pending_events.map((e) => e.id), ['x:created', 'x:updated']);
      const reacted = await repo.addEvent(post.id, { ...anEvent('x', 'reaction'), type: 'reaction.added', reaction: { user_id: 'u', post_id: post.id, emoji_name: 'e', create_at: 1, update_at: 1, delete_at: 0, remote_id: '', channel_id: 'c' } });
      assert.equal(reacted?.pending_events.length, 3);
      assert.equal(reacted?.pending_events[2]?.reaction?.emoji_name, 'e');
      await repo.clearEvent(post.id, 'x:created');
      assert.deepEqual((await repo.findById(post.id))?.pending_events.map((e) => e.id), ['x:updated', 'x:reaction']);
      assert.equal(await repo.update(newId(), { message: 'm' }), undefined);
    });

    it('when an outbox event carries a trace context, then it is stored and read back with it (insert and insertMany)', async () => {
      const repo = await make();
      const trace = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: 'vendor=x' };
      const one = aPost({ pending_events: [{ ...anEvent('one', 'created'), trace }] });
      const many = aPost({ pending_events: [{ ...anEvent('many', 'created'), trace }] });
      await repo.insert(one);
      await repo.insertMany([many]);
      for (const post of [one, many]) assert.deepEqual((await repo.findById(post.id))?.pending_events[0]?.trace, trace);
      assert.deepEqual((await repo.findByIds([many.id]))[0]?.pending_events[0]?.trace, trace);
    });

    it('when events of several posts are cleared at once, then exactly those leave their outboxes (unknown posts and events ignored)', async () => {
      const repo = await make();
      const a = aPost({ create_at: 1, pending_events: [anEvent('a', 'created'), anEvent('a', 'updated'), anEvent('a', 'deleted')] });
      const b = aPost({ create_at: 2, pending_events: [anEvent('b', 'created')] });
      const c = aPost({ create_at: 3, pending_events: [anEvent('c', 'created')] });
      for (const p of [a, b, c]) await repo.insert(p);
      await repo.clearEvents([
        { postId: a.id, eventId: 'a:created' },
        { postId: b.id, eventId: 'b:created' },
        { postId: a.id, eventId: 'a:deleted' },
        { postId: newId(), eventId: 'x:created' },
        { postId: c.id, eventId: 'b:created' },
      ]);
      assert.deepEqual((await repo.findById(a.id))?.pending_events.map((e) => e.id), ['a:updated']);
      assert.deepEqual((await repo.findById(b.id))?.pending_events, []);
      assert.deepEqual((await repo.findById(c.id))?.pending_events.map((e) => e.id), ['c:created']);
      assert.deepEqual((await repo.withPendingEvents(10)).map((p) => p.id), [a.id, c.id]);
      await repo.clearEvents([]);
      assert.deepEqual((await repo.withPendingEvents(10)).map((p) => p.id), [a.id, c.id]);
    });

    it('when some posts have pending events, then withPendingEvents lists only those, oldest first, limited', async () => {
      const repo = await make();
      const old = aPost({ create_at: 1, pending_events: [anEvent('a')] });
      const young = aPost({ create_at: 2, pending_events: [anEvent('b')] });
      await repo.insert(young);
      await repo.insert(old);
      await repo.insert(aPost());
      assert.deepEqual((await repo.withPendingEvents(10)).map((p) => p.id), [old.id, young.id]);
      assert.deepEqual((await repo.withPendingEvents(1)).map((p) => p.id), [old.id]);
      await repo.clearEvent(old.id, 'a:created');
      assert.deepEqual((await repo.withPendingEvents(10)).map((p) => p.id), [young.id]);
    });

    it('when a channel is listed, then newest first, deleted hidden unless asked, with since/before/after and paging', async () => {
      const repo = await make();
      const channelId = newId();
      const posts = [1, 2, 3, 4].map((n) => aPost({ channel_id: channelId, create_at: n * 10, update_at: n * 10 }));
      const deleted = aPost({ channel_id: channelId, create_at: 25, update_at: 50, delete_at: 50 });
      for (const p of [...posts, deleted, aPost()]) await repo.insert(p);
      const ids = (list: { id: string }[]) => list.map((p) => p.id);
      const [p1, p2, p3, p4] = posts.map((p) => p.id);
      assert.deepEqual(ids(await repo.list({ channelId, includeDeleted: false, skip: 0, limit: 10 })), [p4, p3, p2, p1]);
      assert.deepEqual(ids(await repo.list({ channelId, includeDeleted: true, skip: 1, limit: 2 })), [p3, deleted.id]);
      assert.deepEqual(ids(await repo.list({ channelId, includeDeleted: true, updatedSince: 30, skip: 0, limit: 10 })), [p4, deleted.id]);
      assert.deepEqual(ids(await repo.list({ channelId, includeDeleted: false, createdBefore: 30, skip: 0, limit: 10 })), [p2, p1]);
      assert.deepEqual(ids(await repo.list({ channelId, includeDeleted: false, createdAfter: 10, order: 'asc', skip: 0, limit: 2 })), [p2, p3]);
      assert.deepEqual(await repo.list({ channelId, includeDeleted: false, skip: 0, limit: 0 }), []);
    });

    it('when only roots are asked for, then replies are left out in every form (page, since, before/after, deleted shown or not)', async () => {
      const repo = await make();
      const channelId = newId();
      const [r1, r2, r3] = [10, 20, 30].map((t) => aPost({ channel_id: channelId, create_at: t, update_at: t }));
      const deletedRoot = aPost({ channel_id: channelId, create_at: 25, update_at: 60, delete_at: 60 });
      const replies = [12, 22, 32, 34].map((t) => aPost({ channel_id: channelId, root_id: r1?.id ?? '', create_at: t, update_at: 70 }));
      for (const p of [r1, r2, r3, deletedRoot, ...replies, aPost({ create_at: 40 })]) if (p) await repo.insert(p);
      const ids = (list: { id: string }[]) => list.map((p) => p.id);
      const roots = { channelId, rootsOnly: true, skip: 0, limit: 10 };
      assert.deepEqual(ids(await repo.list({ ...roots, includeDeleted: false })), [r3?.id, r2?.id, r1?.id]);
      assert.deepEqual(ids(await repo.list({ ...roots, includeDeleted: true })), [r3?.id, deletedRoot.id, r2?.id, r1?.id]);
      assert.deepEqual(ids(await repo.list({ ...roots, includeDeleted: false, skip: 1, limit: 1 })), [r2?.id]);
      assert.deepEqual(ids(await repo.list({ ...roots, includeDeleted: true, updatedSince: 20 })), [r3?.id, deletedRoot.id]);
      assert.deepEqual(ids(await repo.list({ ...roots, includeDeleted: false, createdBefore: 30 })), [r2?.id, r1?.id]);
      assert.deepEqual(ids(await repo.list({ ...roots, includeDeleted: false, createdAfter: 10, order: 'asc' })), [r2?.id, r3?.id]);
      assert.equal((await repo.list({ channelId, includeDeleted: false, skip: 0, limit: 10 })).length, 7, 'without rootsOnly the replies are listed');
    });

    it('when roots are paged past many replies, then each page holds the next roots in order, none skipped or repeated', async () => {
      const repo = await make();
      const channelId = newId();
      const roots = Array.from({ length: 5 }, (_, i) => aPost({ channel_id: channelId, create_at: 1_000 * (i + 1) }));
      const replies = roots.flatMap((root, i) => Array.from({ length: 60 }, (_, j) => aPost({ channel_id: channelId, root_id: root.id, create_at: 1_000 * (i + 1) + j + 1 })));
      await repo.insertMany([...roots, ...replies]);
      const newestFirst = roots.map((r) => r.id).reverse();
      const pages = [];
      for (let skip = 0; skip < 6; skip += 2) pages.push(...(await repo.list({ channelId, includeDeleted: false, rootsOnly: true, skip, limit: 2 })).map((p) => p.id));
      assert.deepEqual(pages, newestFirst);
      const before = await repo.list({ channelId, includeDeleted: false, rootsOnly: true, createdBefore: roots[3]?.create_at ?? 0, skip: 0, limit: 2 });
      assert.deepEqual(before.map((p) => p.id), [roots[2]?.id, roots[1]?.id]);
    });

    it('when only pinned posts are asked for, then the pinned ones of that channel, deleted ones hidden, in the asked order; unpinning drops one', async () => {
      const repo = await make();
      const channelId = newId();
      const [a, b, c] = [1, 2, 3].map((n) => aPost({ channel_id: channelId, create_at: n * 10, update_at: n * 10, is_pinned: n !== 2 }));
      const deletedPinned = aPost({ channel_id: channelId, create_at: 5, is_pinned: true, delete_at: 6 });
      for (const p of [a, b, c, deletedPinned, aPost({ is_pinned: true })]) if (p) await repo.insert(p);
      const ids = (list: { id: string }[]) => list.map((p) => p.id);
      assert.deepEqual(ids(await repo.list({ channelId, includeDeleted: false, pinnedOnly: true, order: 'asc', skip: 0, limit: 10 })), [a?.id, c?.id]);
      await repo.update(c?.id ?? '', { is_pinned: false, update_at: 99 });
      assert.deepEqual(ids(await repo.list({ channelId, includeDeleted: false, pinnedOnly: true, skip: 0, limit: 10 })), [a?.id]);
    });

    it('when replies are recorded and a post is deleted permanently, then the root counts and the post is gone', async () => {
      const repo = await make();
      const root = aPost({ last_reply_at: 0, update_at: 100 });
      await repo.insert(root);
      await repo.recordReply(root.id, 500, newId());
      await repo.recordReply(root.id, 400, newId());
      const after = await repo.findById(root.id);
      assert.equal(after?.reply_count, 2);
      assert.equal(after?.update_at, 500, 'a reply bumps the root update_at (never backwards)');
      const since = await repo.list({ channelId: root.channel_id, includeDeleted: true, updatedSince: 499, skip: 0, limit: 10 });
      assert.deepEqual(since.map((p) => p.id), [root.id], 'the stored update_at (the since filter) moved too');
      assert.equal(after?.last_reply_at, 500);
      await repo.forgetReply(root.id);
      assert.equal((await repo.findById(root.id))?.reply_count, 1);
      await repo.forgetReply(root.id);
      await repo.forgetReply(root.id);
      assert.equal((await repo.findById(root.id))?.reply_count, 0, 'never below 0');
      assert.equal(await repo.deletePermanently(root.id), true);
      assert.equal(await repo.deletePermanently(root.id), false);
      assert.equal(await repo.findById(root.id), undefined);
    });

    it('when a thread has replies, then listReplies gives its live replies in that channel oldest first, ties by id', async () => {
      const repo = await make();
      const channelId = newId();
      const root = aPost({ channel_id: channelId, create_at: 100 });
      const [a, b] = [newId(), newId()].sort();
      const replies = [
        aPost({ channel_id: channelId, root_id: root.id, create_at: 300 }),
        aPost({ id: b, channel_id: channelId, root_id: root.id, create_at: 200 }),
        aPost({ id: a, channel_id: channelId, root_id: root.id, create_at: 200 }),
      ];
      const deleted = aPost({ channel_id: channelId, root_id: root.id, create_at: 250, delete_at: 260 });
      const otherThread = aPost({ channel_id: channelId, root_id: newId(), create_at: 210 });
      for (const post of [root, ...replies, deleted, otherThread]) await repo.insert(post);
      const ids = (await repo.listReplies(channelId, root.id)).map((p) => p.id);
      assert.deepEqual(ids, [a, b, replies[0]?.id]);
      assert.deepEqual(await repo.listReplies(newId(), root.id), []);
      assert.deepEqual(await repo.listReplies(channelId, newId()), []);
    });

    it('when a thread has replies, then replyAuthors gives their authors once in the order of their first live reply and countRepliesAfter counts the live ones after a time', async () => {
      const repo = await make();
      const channelId = newId();
      const root = aPost({ channel_id: channelId, create_at: 100 });
      const [u1, u2, u3, u4] = [newId(), newId(), newId(), newId()];
      const [a, b] = [newId(), newId()].sort();
      const replies = [
        aPost({ channel_id: channelId, user_id: u1, root_id: root.id, create_at: 400 }),
        aPost({ id: b, channel_id: channelId, user_id: u2, root_id: root.id, create_at: 200 }),
        aPost({ id: a, channel_id: channelId, user_id: u3, root_id: root.id, create_at: 200 }),
        aPost({ channel_id: channelId, user_id: u2, root_id: root.id, create_at: 300 }),
      ];
      const deleted = aPost({ channel_id: channelId, user_id: u4, root_id: root.id, create_at: 150, delete_at: 260 });
      const otherThread = aPost({ channel_id: channelId, user_id: u4, root_id: newId(), create_at: 210 });
      const otherChannel = aPost({ channel_id: newId(), user_id: u4, root_id: root.id, create_at: 220 });
      for (const post of [root, ...replies, deleted, otherThread, otherChannel]) await repo.insert(post);
      assert.deepEqual(await repo.replyAuthors(channelId, root.id), [u3, u2, u1]);
      assert.deepEqual(await repo.replyAuthors(channelId, newId()), []);
      assert.equal(await repo.countRepliesAfter(channelId, root.id, 0), 4);
      assert.equal(await repo.countRepliesAfter(channelId, root.id, 200), 2, 'strictly after');
      assert.equal(await repo.countRepliesAfter(channelId, root.id, 399), 1);
      assert.equal(await repo.countRepliesAfter(channelId, root.id, 400), 0);
      assert.equal(await repo.countRepliesAfter(newId(), root.id, 0), 0);
    });

    it('when replies are recorded, then the root keeps its participants in order of first reply (one read), never in the post; a deleted reply\'s author leaves with forgetReply', async () => {
      const repo = await make();
      const channelId = newId();
      const root = aPost({ channel_id: channelId, create_at: 100, update_at: 100 });
      await repo.insert(root);
      const [u1, u2, u3] = [newId(), newId(), newId()];
      const reply = async (userId: string, at: number) => {
        const post = aPost({ channel_id: channelId, user_id: userId, root_id: root.id, create_at: at });
        await repo.insert(post);
        await repo.recordReply(root.id, at, userId);
        return post;
      };
      assert.deepEqual(await repo.participants(channelId, root.id), []);
      await reply(u1, 200);
      const u2Reply = await reply(u2, 300);
      await reply(u1, 400);
      await reply(u3, 500);
      assert.deepEqual(await repo.participants(channelId, root.id), [u1, u2, u3]);
      assert.deepEqual(await repo.participants(newId(), root.id), [], 'another channel: not this thread');
      assert.deepEqual(await repo.participants(channelId, newId()), []);
      const stored = await repo.findById(root.id);
      assert.deepEqual(stored, { ...root, reply_count: 4, last_reply_at: 500, update_at: 500 }, 'the post itself is unchanged but for its counters');
      assert.deepEqual((await repo.list({ channelId, includeDeleted: false, skip: 0, limit: 10 })).find((p) => p.id === root.id), stored);
      await repo.update(u2Reply.id, { delete_at: 600, update_at: 600 });
      await repo.forgetReply(root.id);
      assert.deepEqual(await repo.participants(channelId, root.id), [u1, u3]);
      await reply(u2, 700);
      assert.deepEqual(await repo.participants(channelId, root.id), [u1, u3, u2], 'a returning author comes last');
    });

    it('when a root was stored before participants were kept, then participants lists its replies\' authors and recordReply still counts', { skip: !options.keptParticipantsDropped && 'no seam for this adapter' }, async () => {
      const repo = await make();
      const channelId = newId();
      const root = aPost({ channel_id: channelId, create_at: 100, update_at: 100 });
      await repo.insert(root);
      await options.keptParticipantsDropped?.(repo, root.id);
      const [u1, u2] = [newId(), newId()];
      for (const [userId, at] of [[u2, 200], [u1, 300], [u2, 400]] as const) {
        await repo.insert(aPost({ channel_id: channelId, user_id: userId, root_id: root.id, create_at: at }));
        await repo.recordReply(root.id, at, userId);
      }
      assert.deepEqual(await repo.participants(channelId, root.id), [u2, u1]);
      assert.equal((await repo.findById(root.id))?.reply_count, 3);
      await repo.forgetReply(root.id);
      assert.deepEqual(await repo.participants(channelId, root.id), [u2, u1]);
      assert.equal((await repo.findById(root.id))?.reply_count, 2);
    });
  });
}
