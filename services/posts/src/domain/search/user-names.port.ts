/** Usernames to user ids (users-bots), for `from:` and `in:@user`. */
export interface UserNames {
  /** Folded usernames → ids; unknown names are absent from the map. */
  idsByUsernames(usernames: readonly string[]): Promise<ReadonlyMap<string, string>>;
  /** The user's names leave any cache at once (users.events said the user changed: a rename); absent: nothing is cached. */
  forget?(userId: string): void;
}
