import type { InternalUser, UsersEvent } from '@switchyard/contracts';
import type { Connection } from '../connection';
import type { MembershipCache } from '../membership-cache';
import type { UserSource } from '../ports';
import { broadcast, type WsEvent } from '../ws-event';

/** The User JSON of `user_updated` (a real object, not a string), sanitised: no e-mail, no auth data. */
export function wireUser(user: InternalUser): Record<string, unknown> {
  return {
    id: user.id,
    create_at: 0,
    update_at: 0,
    delete_at: user.deleteAt,
    username: user.username,
    auth_data: '',
    auth_service: '',
    email: '',
    nickname: user.nickname,
    first_name: user.firstName,
    last_name: user.lastName,
    position: '',
    roles: user.roles,
    locale: 'en',
    timezone: { automaticTimezone: '', manualTimezone: '', useAutomaticTimezone: 'true' },
    is_bot: user.isBot,
    disable_welcome_email: false,
  };
}

const USER_CHANGED = new Set(['user.updated', 'user.activated', 'user.deactivated', 'user.roles_updated', 'bot.updated', 'bot.enabled', 'bot.disabled']);

/** users.events → WebSocket events: `new_user`, `user_updated`, `added_to_team` (team caches are evicted first). */
export async function fromUsersEvent(deps: { readonly membership: MembershipCache; readonly users: UserSource }, event: UsersEvent): Promise<WsEvent[]> {
  const { userId, teamId } = event.payload;
  if (event.type === 'user.created' || event.type === 'bot.created') {
    return [{ event: 'new_user', data: { user_id: userId }, broadcast: broadcast() }];
  }
  if (event.type === 'team.member_added' && teamId !== undefined) {
    deps.membership.evictTeamMember(teamId, userId);
    return [{ event: 'added_to_team', data: { team_id: teamId, user_id: userId }, broadcast: broadcast({ user_id: userId }) }];
  }
  if (USER_CHANGED.has(event.type)) {
    const [user] = await deps.users.usersByIds([userId]);
    if (!user) return [];
    return [{ event: 'user_updated', data: { user: wireUser(user) }, broadcast: broadcast() }];
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
