import type { HookTransform } from '../entities';

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
  /** Absent on update: kept as stored (a reference client's PUT does not know these fields). */
  readonly transform?: HookTransform | null;
  readonly onlyEvents?: readonly string[];
  readonly excludeEvents?: readonly string[];
  /** Absent or the mask on update: kept; '' clears it. */
  readonly transformSecret?: string;
}
