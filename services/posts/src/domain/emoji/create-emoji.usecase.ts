import { commonErrors } from '@switchyard/errors';
import { envelope, Topics } from '@switchyard/contracts';
import { hasPermission, Permissions } from '@switchyard/permissions';
import { newId } from '@switchyard/ids';
import type { Actor } from '../actor';
import { isDuplicateKeyError } from '../errors';
import { EMOJI_NAME, emojiImageKey, EmojiErrors, presentEmoji, type Emoji } from './emoji';
import type { EmojiDeps } from './emoji-deps';

/** A parsed `POST /emoji` form: the `emoji` field's text and the `image` file part, when present. */
export interface EmojiUpload {
  readonly emoji?: string;
  readonly image?: Buffer;
}

/** The `emoji` field as the reference decodes it into `model.Emoji` (only `name` and `creator_id` matter). */
function decodeEmojiField(text: string | undefined): { name: string; creator_id: string } {
  if (text === undefined || text === '') throw commonErrors.invalidBodyParam('emoji');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw commonErrors.invalidBodyParam('emoji');
  }
  if (value === null) return { name: '', creator_id: '' };
  if (typeof value !== 'object' || Array.isArray(value)) throw commonErrors.invalidBodyParam('emoji');
  const { name = '', creator_id: creatorId = '' } = value as { name?: unknown; creator_id?: unknown };
  if (typeof name !== 'string' || typeof creatorId !== 'string') throw commonErrors.invalidBodyParam('emoji');
  return { name, creator_id: creatorId };
}

/**
 * `POST /emoji` after the route's 501 and 413 checks, in the reference's order: the multipart body
 * (`readUpload`: 400 api.emoji.create.parse), create_emojis (403), the `emoji` field (400 invalid_body_param),
 * creator id and name (model.emoji.*), the creator must be the caller (403), a live emoji with that name (400
 * duplicate), the image (400 invalid_body_param `createEmoji` when absent, then the image checks). The image
 * is written first, then the metadata; `emoji_added` goes to every connection.
 */
export async function createEmoji(deps: EmojiDeps, actor: Actor, readUpload: () => Promise<EmojiUpload>): Promise<Emoji> {
  const upload = await readUpload();
  if (!hasPermission(actor.roles, Permissions.createEmojis)) throw commonErrors.permissions(actor.userId, Permissions.createEmojis);
  const fields = decodeEmojiField(upload.emoji);
  if (fields.creator_id.length > 26) throw EmojiErrors.creatorId();
  if (!EMOJI_NAME.test(fields.name)) throw EmojiErrors.name();
  if (deps.isSystemEmojiName(fields.name)) throw EmojiErrors.systemName();
  if (fields.creator_id !== actor.userId) throw EmojiErrors.otherUser();
  if (await deps.emoji.findByName(fields.name)) throw EmojiErrors.duplicate();
  if (!upload.image) throw commonErrors.invalidBodyParam('createEmoji');

  const prepared = await deps.images.prepare(upload.image);
  if (!prepared.ok) throw prepared.reason === 'too_large' ? EmojiErrors.imageTooLarge() : prepared.reason === 'corrupt' ? EmojiErrors.imageDecode(prepared.detail) : EmojiErrors.image(prepared.detail);
  const now = deps.clock.now();
  const emoji: Emoji = { id: newId(), create_at: now, update_at: now, delete_at: 0, creator_id: actor.userId, name: fields.name };
  const store = deps.fileStore();
  await store.write(emojiImageKey(emoji.id), prepared.data);
  try {
    await deps.emoji.insert(emoji);
  } catch (error) {
    await store.remove(emojiImageKey(emoji.id)).catch(() => undefined);
    // Two creations of one name at once: the loser gets the answer the check above gives.
    if (isDuplicateKeyError(error)) throw EmojiErrors.duplicate();
    throw error;
  }
  await deps.events.publish(Topics.realtimeEvents, [{ key: emoji.id, value: envelope('emoji.added', { emoji: presentEmoji(emoji) }) }]).catch(() => undefined);
  return emoji;
}
