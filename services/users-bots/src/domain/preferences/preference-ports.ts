import type { Preference } from './preference';

/** User preferences. Adapters: memory, SQLite, MongoDB, under one contract suite. */
export interface PreferenceRepository {
  /** Every preference of the user, by category then name. */
  listByUser(userId: string): Promise<Preference[]>;
  /** The user's preferences of one category, by name. */
  listByCategory(userId: string, category: string): Promise<Preference[]>;
  find(userId: string, category: string, name: string): Promise<Preference | undefined>;
  /** Inserts or replaces each (by user_id, category, name). */
  save(preferences: readonly Preference[]): Promise<void>;
  /** Removes one; false when there was none. */
  delete(userId: string, category: string, name: string): Promise<boolean>;
  /** The value of one (category, name) for each of these users that has it (posts asks for the CRT preference). */
  valuesOf(userIds: readonly string[], category: string, name: string): Promise<ReadonlyMap<string, string>>;
}

/** What saving a `flagged_post` preference checks (posts' internal API): the post exists and its channel is readable. */
export interface PostAccess {
  /** The channel of a live post, undefined when there is no such post. */
  channelOfPost(postId: string): Promise<string | undefined>;
  isChannelMember(channelId: string, userId: string): Promise<boolean>;
}
