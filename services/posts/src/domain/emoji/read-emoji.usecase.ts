import { emojiImageKey, EmojiErrors, type Emoji } from './emoji';
import type { EmojiImageFormat } from './emoji-ports';
import { customEmojiEnabled, type EmojiDeps } from './emoji-deps';
import { emojiFormatOf } from './emoji-format';

/** `web.PerPageMaximum`: what `POST /emoji/search` answers at most. */
export const EMOJI_SEARCH_LIMIT = 200;
/** `EmojiMaxAutocompleteItems`. */
export const EMOJI_AUTOCOMPLETE_LIMIT = 100;
/** `GetEmojisByNamesMax`. */
export const EMOJI_NAMES_MAX = 200;

/**
 * The app-level checks of the reference's emoji reads (GetEmoji, GetEmojiByName, SearchEmoji): disabled
 * custom emoji are 403 there (the routes that check first answer 501).
 */
function requireEnabled(deps: EmojiDeps): void {
  if (!customEmojiEnabled(deps)) throw EmojiErrors.disabled403();
}

export async function getEmoji(deps: EmojiDeps, id: string): Promise<Emoji> {
  requireEnabled(deps);
  const emoji = await deps.emoji.findById(id);
  if (!emoji) throw EmojiErrors.notFound();
  return emoji;
}

export async function getEmojiByName(deps: EmojiDeps, name: string): Promise<Emoji> {
  requireEnabled(deps);
  const emoji = await deps.emoji.findByName(name);
  if (!emoji) throw EmojiErrors.nameNotFound();
  return emoji;
}

/** `POST /emoji/names`: at most 200 names; unknown ones are left out. */
export async function getEmojisByNames(deps: EmojiDeps, names: readonly string[]): Promise<Emoji[]> {
  if (names.length > EMOJI_NAMES_MAX) throw EmojiErrors.tooManyNames(EMOJI_NAMES_MAX);
  requireEnabled(deps);
  return deps.emoji.findByNames([...new Set(names)]);
}

export function listEmoji(deps: EmojiDeps, page: number, perPage: number, byName: boolean): Promise<Emoji[]> {
  return deps.emoji.list(page * perPage, perPage, byName);
}

export async function searchEmoji(deps: EmojiDeps, term: string, prefixOnly: boolean, limit: number): Promise<Emoji[]> {
  requireEnabled(deps);
  return deps.emoji.search(term, prefixOnly, limit);
}

/** The image bytes and their type (`image/<format>`); a live emoji whose file is gone is 404 read error. */
export async function getEmojiImage(deps: EmojiDeps, id: string): Promise<{ data: Buffer; format: EmojiImageFormat }> {
  const emoji = await deps.emoji.findById(id);
  if (!emoji) throw EmojiErrors.notFound();
  const data = await deps.fileStore().read(emojiImageKey(id));
  if (!data) throw EmojiErrors.imageRead();
  const format = emojiFormatOf(data);
  if (!format) throw EmojiErrors.imageRead();
  return { data, format };
}
