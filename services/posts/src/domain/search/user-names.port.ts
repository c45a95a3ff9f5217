/** Usernames to user ids (users-bots), for `from:` and `in:@user`. */
export interface UserNames {
  /** Folded usernames → ids; unknown names are absent from the map. */
  idsByUsernames(usernames: readonly string[]): Promise<ReadonlyMap<string, string>>;
}
