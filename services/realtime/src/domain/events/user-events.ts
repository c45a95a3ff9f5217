import type { UsersEvent } from '@switchyard/contracts';
import type { Connection } from '../connection';
import type { MembershipCache } from '../membership-cache';
import type { UserSource } from '../ports';
import { broadcast, type WsEvent } from '../ws-event';

const USER_CHANGED = new Set(['user.updated', 'user.activated', 'user.deactivated', 'user.roles_updated', 'bot.updated', 'bot.enabled', 'bot.disabled']);

/** users.events → WebSocket events: `new_user`, `user_updated`, `added_to_team` (team caches are evicted first). */
export async function fromUsersEvent(deps: { readonly membership: Pick<MembershipCache, 'evictTeamMember'>; readonly users: UserSource }, event: UsersEvent): Promise<WsEvent[]> {
  const { userId, teamId } = event.payload;
  if (event.type === 'user.created' || event.type === 'bot.created') {
    return [{ event: 'new_user', data: { user_id: userId }, broadcast: broadcast() }];
  }
  if (event.type === 'team.member_added' && teamId !== undefined) {
    deps.membership.evictTeamMember(teamId, userId);
    return [{ event: 'added_to_team', data: { team_id: teamId, user_id: userId }, broadcast: broadcast({ user_id: userId }) }];
  }
  if (USER_CHANGED.has(event.type)) {
    // As the reference's sendUpdatedUserEvent: admins and everyone else get their copy (the user omitted),
    // the user gets their own.
    const copies = await deps.users.userUpdatedCopies(userId);
    if (!copies) return [];
    const omitUsers = { [userId]: true as const };
    return [
      { event: 'user_updated', data: { user: copies.admin }, broadcast: broadcast({ omit_users: omitUsers, contains_sensitive_data: true }) },
      { event: 'user_updated', data: { user: copies.sanitized }, broadcast: broadcast({ omit_users: omitUsers, contains_sanitized_data: true }) },
      { event: 'user_updated', data: { user: copies.self }, broadcast: broadcast({ user_id: userId }) },
    ];
  }
  return [];
}

const USER_GONE = new Set(['user.deactivated', 'bot.disabled']);
const CREDENTIAL_GONE = new Set(['session.revoked', 'token.revoked', 'token.disabled']);

/**
 * Which connections a users.events message ends: all of a deactivated user or disabled bot, and those
 * authenticated with a revoked session or a revoked or disabled token.
 */
export function revokedBy(event: UsersEvent): ((conn: Connection) => boolean) | undefined {
  const { userId, sessionIds = [], tokenIds = [] } = event.payload;
  if (USER_GONE.has(event.type)) return (conn) => conn.userId === userId;
  if (!CREDENTIAL_GONE.has(event.type)) return undefined;
  return (conn) =>
    conn.userId === userId &&
    conn.session !== undefined &&
    (sessionIds.includes(conn.session.sessionId) || (conn.session.tokenId !== undefined && tokenIds.includes(conn.session.tokenId)));
}
