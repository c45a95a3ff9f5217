import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { ReactionRepository } from '../../domain/ports';
import { aReaction, type Factory } from './fixtures';

export function reactionRepositoryContract(name: string, make: Factory<ReactionRepository>): void {
  describe(`ReactionRepository contract: ${name}`, () => {
    it('when reactions are saved, then one per (user, post, emoji), listed oldest first and counted per post', async () => {
      const repo = await make();
      const postId = newId();
      const a = aReaction({ post_id: postId, create_at: 1 });
      const b = aReaction({ post_id: postId, create_at: 2, emoji_name: 'tada' });
      assert.deepEqual(await repo.save(b), b);
      await repo.save(a);
      await repo.save({ ...a, update_at: 99 });
      await repo.save(aReaction());
      assert.deepEqual(await repo.listByPost(postId), [{ ...a, update_at: 99 }, b]);
      assert.equal(await repo.countByPost(postId), 2);
    });

    it('when the reactions of an emoji name are removed, then only those, and the posts that had one are named once', async () => {
      const repo = await make();
      const [p1, p2, p3] = [newId(), newId(), newId()];
      await repo.save(aReaction({ post_id: p1, emoji_name: 'parrot' }));
      await repo.save(aReaction({ post_id: p1, emoji_name: 'parrot' }));
      await repo.save(aReaction({ post_id: p2, emoji_name: 'parrot' }));
      const kept = aReaction({ post_id: p3, emoji_name: 'parrot2' });
      await repo.save(kept);
      assert.deepEqual((await repo.deleteByEmojiName('parrot')).sort(), [p1, p2].sort());
      assert.equal(await repo.countByPost(p1), 0);
      assert.deepEqual(await repo.listByPost(p3), [kept]);
      assert.deepEqual(await repo.deleteByEmojiName('parrot'), []);
    });

    it('when a reaction is deleted, then it is gone and a second delete answers false', async () => {
      const repo = await make();
      const r = aReaction();
      await repo.save(r);
      assert.equal(await repo.delete(r.user_id, r.post_id, r.emoji_name), true);
      assert.equal(await repo.delete(r.user_id, r.post_id, r.emoji_name), false);
      assert.deepEqual(await repo.listByPost(r.post_id), []);
      assert.equal(await repo.countByPost(r.post_id), 0);
    });
  });
}
