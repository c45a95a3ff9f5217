/** A custom slash command as stored (mattermost-wire-2.md §2, Command JSON). */
export interface Command {
  readonly id: string;
  /** Sent verbatim to the integration in every request, so kept as is (ADR 0008). */
  readonly token: string;
  readonly createAt: number;
  readonly updateAt: number;
  /** ms; 0 while the command exists (deletes are soft). */
  readonly deleteAt: number;
  readonly creatorId: string;
  readonly teamId: string;
  /** Lower-cased, without the leading `/`. */
  readonly trigger: string;
  /** `P` (POST, form body) or `G` (GET, query). */
  readonly method: string;
  readonly username: string;
  readonly iconUrl: string;
  readonly autoComplete: boolean;
  readonly autoCompleteDesc: string;
  readonly autoCompleteHint: string;
  readonly displayName: string;
  readonly description: string;
  readonly url: string;
}

/**
 * One execution's `response_url` (`/hooks/commands/{id}`): where the integration may answer later, as
 * the invoking user, in the channel and thread of the execution. Only the SHA-256 of the id is stored.
 */
export interface CommandWebhook {
  /** Hex SHA-256 of the id handed to the integration. */
  readonly idHash: string;
  readonly createAt: number;
  readonly commandId: string;
  readonly userId: string;
  readonly channelId: string;
  readonly rootId: string;
  readonly useCount: number;
}
