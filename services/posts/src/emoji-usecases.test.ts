import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSystemConfig, MutableConfigView } from '@switchyard/system-config';
import { ManualClock } from '@switchyard/ids';
import { isAppError } from '@switchyard/errors';
import { LocalFileStore } from './adapters/files/local-file-store';
import { MemoryEmojiRepository, MemoryPostRepository, MemoryReactionRepository } from './adapters/memory';
import { aPost, aReaction } from './adapters/contracts/fixtures';
import type { Actor } from './domain/actor';
import { createEmoji } from './domain/emoji/create-emoji.usecase';
import { deleteEmoji } from './domain/emoji/delete-emoji.usecase';
import { deletedEmojiImageKey, emojiImageKey } from './domain/emoji/emoji';
import type { EmojiDeps } from './domain/emoji/emoji-deps';
import type { EmojiImageProcessor } from './domain/emoji/emoji-ports';
import { getEmojiImage, searchEmoji } from './domain/emoji/read-emoji.usecase';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function world(options: { images?: EmojiImageProcessor } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'emoji-uc-'));
  dirs.push(dir);
  const liveConfig = new MutableConfigView();
  liveConfig.replace(defaultSystemConfig());
  const published: { topic: string; value: unknown }[] = [];
  const store = new LocalFileStore(dir);
  const deps: EmojiDeps = {
    emoji: new MemoryEmojiRepository(),
    reactions: new MemoryReactionRepository(),
    posts: new MemoryPostRepository(),
    fileStore: () => store,
    images: options.images ?? { prepare: async (data) => ({ ok: true, data, format: 'png' }) },
    liveConfig,
    clock: new ManualClock(),
    events: { publish: async (topic, messages) => void published.push(...messages.map((m) => ({ topic, value: m.value }))) },
    isSystemEmojiName: (name) => name === 'smile',
  };
  return { deps, published, store, liveConfig };
}

const user = (id: string, roles = 'system_user'): Actor => ({ userId: id.padEnd(26, 'x'), roles, isBot: false });
const form = (name: string, creator: Actor, image: Buffer | undefined = PNG) => async () => ({ emoji: JSON.stringify({ name, creator_id: creator.userId }), ...(image ? { image } : {}) });
const rejectsWith = (promise: Promise<unknown>, id: string) => assert.rejects(promise, (e: unknown) => isAppError(e) && e.id === id);

describe('custom emoji use cases', () => {
  it('when an emoji is created, then the image is stored under the reference path, the metadata saved and emoji.added published', async () => {
    const { deps, published, store } = world();
    const alice = user('alice');
    const emoji = await createEmoji(deps, alice, form('ship-it', alice));
    assert.equal(emoji.creator_id, alice.userId);
    assert.deepEqual(await store.read(emojiImageKey(emoji.id)), PNG);
    assert.deepEqual((await getEmojiImage(deps, emoji.id)).format, 'png');
    assert.equal(published.length, 1);
    assert.equal((published[0]?.value as { type: string }).type, 'emoji.added');
  });

  it('when the checks fail, then the reference order: permission, field, creator id, name, system name, other user, duplicate, image', async () => {
    const { deps } = world();
    const alice = user('alice');
    await createEmoji(deps, alice, form('taken', alice));
    await rejectsWith(createEmoji(deps, user('guest', 'system_guest'), form('x', user('guest'))), 'api.context.permissions.app_error');
    await rejectsWith(createEmoji(deps, alice, async () => ({ image: PNG })), 'api.context.invalid_body_param.app_error');
    await rejectsWith(createEmoji(deps, alice, async () => ({ emoji: '[]', image: PNG })), 'api.context.invalid_body_param.app_error');
    await rejectsWith(createEmoji(deps, alice, async () => ({ emoji: JSON.stringify({ name: 'bad name', creator_id: 'x'.repeat(27) }) })), 'model.emoji.user_id.app_error');
    await rejectsWith(createEmoji(deps, alice, form('bad name', alice)), 'model.emoji.name.app_error');
    await rejectsWith(createEmoji(deps, alice, form('smile', alice)), 'model.emoji.system_emoji_name.app_error');
    await rejectsWith(createEmoji(deps, alice, form('fine', user('bob'))), 'api.emoji.create.other_user.app_error');
    await rejectsWith(createEmoji(deps, alice, form('taken', alice)), 'api.emoji.create.duplicate.app_error');
    await rejectsWith(createEmoji(deps, alice, async () => ({ emoji: JSON.stringify({ name: 'fine', creator_id: alice.userId }) })), 'api.context.invalid_body_param.app_error');
  });

  it('when the image processor refuses, then its reason decides the error and nothing is stored', async () => {
    const alice = user('alice');
    for (const [reason, id] of [
      ['too_large', 'api.emoji.upload.large_image.too_large.app_error'],
      ['not_image', 'api.emoji.upload.image.app_error'],
      ['corrupt', 'api.emoji.upload.large_image.decode_error'],
    ] as const) {
      const { deps } = world({ images: { prepare: async () => ({ ok: false, reason, detail: 'x' }) } });
      await rejectsWith(createEmoji(deps, alice, form('refused', alice)), id);
      assert.deepEqual(await deps.emoji.list(0, 10, true), []);
    }
  });

  it('when an emoji is deleted, then only by its creator or with delete_others_emojis, its image renamed, and search misses it', async () => {
    const { deps, store } = world();
    const alice = user('alice');
    const emoji = await createEmoji(deps, alice, form('doomed', alice));
    await rejectsWith(deleteEmoji(deps, user('bob'), emoji.id), 'api.context.permissions.app_error');
    await rejectsWith(deleteEmoji(deps, user('guest', 'system_guest'), emoji.id), 'api.context.permissions.app_error');
    assert.equal((await searchEmoji(deps, 'doo', true, 10)).length, 1);
    await deleteEmoji(deps, user('admin', 'system_user system_admin'), emoji.id);
    assert.equal(await store.read(emojiImageKey(emoji.id)), undefined);
    assert.deepEqual(await store.read(deletedEmojiImageKey(emoji.id)), PNG);
    assert.deepEqual(await searchEmoji(deps, 'doo', true, 10), []);
    await rejectsWith(deleteEmoji(deps, alice, emoji.id), 'app.emoji.get.no_result');
  });

  it('when an emoji is deleted, then the reactions with its name are removed and those posts\' has_reactions follows', async () => {
    const { deps } = world();
    const alice = user('alice');
    const emoji = await createEmoji(deps, alice, form('wave2', alice));
    const post = aPost({ has_reactions: true });
    const other = aPost({ has_reactions: true });
    await deps.posts.insert(post);
    await deps.posts.insert(other);
    await deps.reactions.save(aReaction({ post_id: post.id, emoji_name: 'wave2' }));
    await deps.reactions.save(aReaction({ post_id: other.id, emoji_name: 'wave2' }));
    await deps.reactions.save(aReaction({ post_id: other.id, emoji_name: 'tada' }));
    await deleteEmoji(deps, alice, emoji.id);
    assert.equal((await deps.posts.findById(post.id))?.has_reactions, false);
    assert.equal((await deps.posts.findById(other.id))?.has_reactions, true);
    assert.deepEqual((await deps.reactions.listByPost(other.id)).map((r) => r.emoji_name), ['tada']);
  });

  it('when custom emoji are disabled, then reads are the app-level 403', async () => {
    const { deps, liveConfig } = world();
    liveConfig.replace({ ...defaultSystemConfig(), ServiceSettings: { ...defaultSystemConfig().ServiceSettings, EnableCustomEmoji: false } });
    await rejectsWith(searchEmoji(deps, 'x', true, 10), 'api.emoji.disabled.app_error');
  });
});
