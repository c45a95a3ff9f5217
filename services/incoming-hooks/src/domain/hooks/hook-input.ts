/** The hook fields a client may send on create or update (wire names mapped to the entity's). */
export interface HookInput {
  readonly id?: string;
  readonly channelId: string;
  readonly teamId?: string;
  readonly userId?: string;
  readonly displayName?: string;
  readonly description?: string;
  readonly username?: string;
  readonly iconUrl?: string;
  readonly channelLocked?: boolean;
  readonly reactionNotifications?: boolean;
}
