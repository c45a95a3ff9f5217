/** The writable fields of an outgoing hook as a client sends them (create and update). */
export interface HookInput {
  readonly id?: string;
  readonly token?: string;
  readonly teamId?: string;
  readonly channelId?: string;
  readonly creatorId?: string;
  readonly triggerWords?: readonly string[];
  readonly triggerWhen?: number;
  readonly callbackUrls?: readonly string[];
  readonly displayName?: string;
  readonly description?: string;
  readonly contentType?: string;
  readonly username?: string;
  readonly iconUrl?: string;
  /** Extensions: absent on update keeps the hook's value. */
  readonly signingAlgorithm?: string;
  readonly eventTypes?: readonly string[];
  readonly botUserId?: string;
}
