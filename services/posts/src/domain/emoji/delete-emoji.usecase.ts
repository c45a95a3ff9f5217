import { commonErrors } from '@switchyard/errors';
import { hasPermission, Permissions } from '@switchyard/permissions';
import type { Actor } from '../actor';
import { deletedEmojiImageKey, emojiImageKey, EmojiErrors } from './emoji';
import type { EmojiDeps } from './emoji-deps';
import { getEmoji } from './read-emoji.usecase';

/**
 * `DELETE /emoji/{emoji_id}` as the reference: the emoji is read first (disabled: 403, unknown: 404), then
 * delete_emojis, and delete_others_emojis for someone else's (403). The emoji is soft-deleted (its name is
 * free again), its image renamed to `image_deleted`, and the reactions with its name removed (no event; the
 * posts' has_reactions follows), as the reference's DeleteEmoji.
 */
export async function deleteEmoji(deps: EmojiDeps, actor: Actor, id: string): Promise<void> {
  const emoji = await getEmoji(deps, id);
  if (!hasPermission(actor.roles, Permissions.deleteEmojis)) throw commonErrors.permissions(actor.userId, Permissions.deleteEmojis);
  if (emoji.creator_id !== actor.userId && !hasPermission(actor.roles, Permissions.deleteOthersEmojis)) throw commonErrors.permissions(actor.userId, Permissions.deleteOthersEmojis);
  if (!(await deps.emoji.softDelete(id, deps.clock.now()))) throw EmojiErrors.deleteNotFound();
  const now = deps.clock.now();
  for (const postId of await deps.reactions.deleteByEmojiName(emoji.name)) {
    await deps.posts.update(postId, { has_reactions: (await deps.reactions.countByPost(postId)) > 0, update_at: now });
  }
  const store = deps.fileStore();
  try {
    const image = await store.read(emojiImageKey(id));
    if (image) await store.write(deletedEmojiImageKey(id), image);
    await store.remove(emojiImageKey(id));
  } catch {
    // As the reference: a failed rename leaves the emoji deleted (its image is no longer served).
  }
}
