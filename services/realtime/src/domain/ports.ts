import type { InternalUser, ResolvedSession } from '@switchyard/contracts';

/** users-bots' token check (the `authentication_challenge` action). */
export interface SessionSource {
  /** undefined for an unknown, revoked or expired token. */
  resolve(token: string): Promise<ResolvedSession | undefined>;
}

/** Who belongs where: posts (channel members) and users-bots (team members). */
export interface MembershipSource {
  /** Every member of the channel; undefined when the channel does not exist. */
  channelMemberIds(channelId: string): Promise<readonly string[] | undefined>;
  isTeamMember(teamId: string, userId: string): Promise<boolean>;
}

/** users-bots' user lookups (usernames for mentions and display names, `user_updated` objects). */
export interface UserSource {
  usersByIds(ids: readonly string[]): Promise<readonly InternalUser[]>;
}

/** Where `typing` goes so that every replica's connections get it (realtime.events). */
export interface TypingPublisher {
  typing(channelId: string, userId: string, parentId: string): Promise<void>;
}

export interface Clock {
  now(): number;
}
