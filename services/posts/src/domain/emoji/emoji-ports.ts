import type { Emoji } from './emoji';

/**
 * Custom emoji metadata (the image is in the file store). Adapters: memory, SQLite, MongoDB, under one
 * contract suite. Every read answers live emoji only (delete_at = 0).
 */
export interface EmojiRepository {
  /** Unique among live emoji: a live emoji with that name → DuplicateKeyError('name'). */
  insert(emoji: Emoji): Promise<void>;
  findById(id: string): Promise<Emoji | undefined>;
  findByName(name: string): Promise<Emoji | undefined>;
  /** The live emoji with any of these names (any order). */
  findByNames(names: readonly string[]): Promise<Emoji[]>;
  /** `byName`: ordered by name; else oldest first (create_at, id). */
  list(offset: number, limit: number, byName: boolean): Promise<Emoji[]>;
  /** Names starting with `term` (or containing it unless `prefixOnly`), case-sensitive, ordered by name. */
  search(term: string, prefixOnly: boolean, limit: number): Promise<Emoji[]>;
  /** Sets delete_at and update_at = at on a live emoji; false when there is none with that id. */
  softDelete(id: string, at: number): Promise<boolean>;
}

/** Image formats an emoji may be stored in (what clients render; decided by the bytes). */
export type EmojiImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

export type EmojiImageOutcome =
  | { readonly ok: true; readonly data: Buffer; readonly format: EmojiImageFormat }
  | { readonly ok: false; readonly reason: 'not_image' | 'too_large' | 'corrupt'; readonly detail: string };

/** Checks an uploaded emoji image and scales it down when needed (sharp, on libuv's thread pool). */
export interface EmojiImageProcessor {
  prepare(data: Buffer): Promise<EmojiImageOutcome>;
}
