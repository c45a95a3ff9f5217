import type { ChannelMember } from '../entities';
import { isDuplicateKeyError } from '../errors';
import type { Deps } from '../ports';

export function newMember(channelId: string, userId: string, now: number, admin = false): ChannelMember {
  return {
    channel_id: channelId,
    user_id: userId,
    scheme_user: true,
    scheme_admin: admin,
    explicit_roles: '',
    last_viewed_at: 0,
    msg_count: 0,
    mention_count: 0,
    last_update_at: now,
    create_at: now,
  };
}

/** Inserts the membership unless it exists; returns the stored one and whether it is new. */
export async function ensureMember(deps: Pick<Deps, 'channelMembers'>, member: ChannelMember): Promise<{ member: ChannelMember; created: boolean }> {
  try {
    await deps.channelMembers.insert(member);
    return { member, created: true };
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    const existing = await deps.channelMembers.find(member.channel_id, member.user_id);
    if (!existing) throw error;
    return { member: existing, created: false };
  }
}
