import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { FileInfo } from '../../domain/files/file-info';
import type { FileInfoRepository } from '../../domain/files/file-ports';
import { isDuplicateKeyError } from '../../domain/errors';
import type { Factory } from './fixtures';

export function aFileInfo(overrides: Partial<FileInfo> = {}): FileInfo {
  const id = overrides.id ?? newId();
  return {
    id,
    user_id: newId(),
    post_id: '',
    channel_id: newId(),
    create_at: 1000,
    update_at: 1000,
    delete_at: 0,
    name: 'chart.png',
    extension: 'png',
    size: 1234,
    mime_type: 'image/png',
    width: 120,
    height: 80,
    has_preview_image: true,
    mini_preview: null,
    path: `20261127/teams/noteam/channels/c/users/u/${id}/chart.png`,
    thumbnail_path: `20261127/teams/noteam/channels/c/users/u/${id}/chart_thumb.jpg`,
    preview_path: `20261127/teams/noteam/channels/c/users/u/${id}/chart_preview.jpg`,
    ...overrides,
  };
}

export function fileInfoRepositoryContract(name: string, make: Factory<FileInfoRepository>): void {
  describe(`FileInfoRepository contract: ${name}`, () => {
    it('when a file info is inserted, then it is found by id exactly, and a second insert of the id is a duplicate', async () => {
      const repo = await make();
      const info = aFileInfo({ mini_preview: 'AAAA' });
      await repo.insert(info);
      assert.deepEqual(await repo.findById(info.id), info);
      assert.equal(await repo.findById(newId()), undefined);
      await assert.rejects(repo.insert(info), isDuplicateKeyError);
    });

    it('when files are attached, then only the uploader\'s unattached, undeleted files of the channel are, once', async () => {
      const repo = await make();
      const userId = newId();
      const channelId = newId();
      const mine = aFileInfo({ user_id: userId, channel_id: channelId, create_at: 2 });
      const mineToo = aFileInfo({ user_id: userId, channel_id: channelId, create_at: 1 });
      const others = aFileInfo({ channel_id: channelId });
      const elsewhere = aFileInfo({ user_id: userId });
      for (const f of [mine, mineToo, others, elsewhere]) await repo.insert(f);
      const postId = newId();
      const attached = await repo.attach([mine.id, others.id, elsewhere.id, newId(), mineToo.id], postId, channelId, userId, 5000);
      assert.deepEqual(attached, [mine.id, mineToo.id]);
      assert.deepEqual(await repo.attach([mine.id], newId(), channelId, userId, 6000), [], 'already attached');
      const listed = await repo.listByPost(postId);
      assert.deepEqual(listed.map((f) => f.id), [mineToo.id, mine.id], 'oldest first');
      assert.equal(listed[0]?.post_id, postId);
      assert.equal(listed[0]?.update_at, 5000);
      assert.equal((await repo.findById(others.id))?.post_id, '');
      const among = await repo.listByPost(postId, [mine.id, others.id, mineToo.id, newId(), mine.id]);
      assert.deepEqual(among.map((f) => f.id), [mineToo.id, mine.id], 'among: only the post\'s, oldest first, each once');
      assert.deepEqual((await repo.listByPost(postId, [mine.id])).map((f) => f.id), [mine.id], 'among: only those listed');
      assert.deepEqual(await repo.listByPost(postId, []), []);
    });

    it('when a post\'s files are deleted, then they are soft-deleted, no longer listed nor attachable', async () => {
      const repo = await make();
      const info = aFileInfo();
      await repo.insert(info);
      const postId = newId();
      await repo.attach([info.id], postId, info.channel_id, info.user_id, 2000);
      assert.equal(await repo.deleteByPost(postId, 3000), 1);
      assert.equal(await repo.deleteByPost(postId, 4000), 0);
      assert.deepEqual(await repo.listByPost(postId), []);
      assert.deepEqual(await repo.listByPost(postId, [info.id]), [], 'among: a deleted file is not listed');
      const stored = await repo.findById(info.id);
      assert.equal(stored?.delete_at, 3000);
      const unattached = aFileInfo({ delete_at: 10 });
      await repo.insert(unattached);
      assert.deepEqual(await repo.attach([unattached.id], newId(), unattached.channel_id, unattached.user_id, 5000), []);
    });

    it('when unattached files are discarded, then only the user\'s files no post took are, once', async () => {
      const repo = await make();
      const mine = aFileInfo();
      const attached = aFileInfo({ user_id: mine.user_id, channel_id: mine.channel_id });
      const theirs = aFileInfo();
      for (const info of [mine, attached, theirs]) await repo.insert(info);
      await repo.attach([attached.id], newId(), attached.channel_id, attached.user_id, 1500);
      assert.deepEqual(await repo.discardUnattached([mine.id, attached.id, theirs.id, newId()], mine.user_id, 2000), [mine.id]);
      assert.deepEqual(await repo.discardUnattached([mine.id], mine.user_id, 3000), []);
      assert.equal((await repo.findById(mine.id))?.delete_at, 2000);
      assert.equal((await repo.findById(attached.id))?.delete_at, 0);
      assert.equal((await repo.findById(theirs.id))?.delete_at, 0);
      assert.deepEqual(await repo.attach([mine.id], newId(), mine.channel_id, mine.user_id, 4000), []);
    });

    it('when two posts race for one file, then exactly one gets it', async () => {
      const repo = await make();
      const info = aFileInfo();
      await repo.insert(info);
      const results = await Promise.all([1, 2, 3].map(() => repo.attach([info.id], newId(), info.channel_id, info.user_id, 2000)));
      assert.equal(results.filter((r) => r.length === 1).length, 1);
    });
  });
}
