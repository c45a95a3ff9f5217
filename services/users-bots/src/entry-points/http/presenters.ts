import type { InternalTeam, InternalUser } from '@switchyard/contracts';
import type { SystemConfig } from '@switchyard/system-config';
import { isSystemOwned, teamMemberRoles, type AccessToken, type Session, type Team, type TeamMember, type User } from '../../domain/entities';
import type { BotView, UserView } from '../../domain/views';

type Json = Record<string, unknown>;

export interface UserAudience {
  /** The caller is this user: self-sanitising (password, mfa secret, last_login removed). */
  readonly self: boolean;
  /** The caller has manage_system: email, names and auth_service always shown. */
  readonly admin: boolean;
  readonly config: Readonly<SystemConfig>;
}

/** The reference's `omitempty`: zero numbers, false, '' and empty maps are left out. */
function putIf(out: Json, key: string, value: unknown): void {
  if (value === undefined || value === null || value === 0 || value === false || value === '') return;
  if (typeof value === 'object' && Object.keys(value as object).length === 0) return;
  out[key] = value;
}

/** User JSON sanitised for the audience (mattermost-wire.md §3). */
export function presentUser(view: UserView, audience: UserAudience): Json {
  const { user, bot } = view;
  const privacy = audience.config.PrivacySettings;
  const self = audience.self;
  const showEmail = self || audience.admin || privacy.ShowEmailAddress;
  const showName = self || audience.admin || privacy.ShowFullName;
  const out: Json = {
    id: user.id,
    create_at: user.createAt,
    update_at: user.updateAt,
    delete_at: user.deleteAt,
    username: user.username,
    auth_data: '',
    auth_service: self || audience.admin ? user.authService : '',
    email: showEmail ? user.email : '',
    nickname: user.nickname,
    first_name: showName ? user.firstName : '',
    last_name: showName ? user.lastName : '',
    position: user.position,
    roles: user.roles,
    locale: user.locale,
    timezone: user.timezone === null ? null : { ...user.timezone },
    disable_welcome_email: false,
  };
  putIf(out, 'props', user.props);
  putIf(out, 'last_picture_update', user.lastPictureUpdate);
  putIf(out, 'mfa_active', user.mfaActive);
  if (self) {
    putIf(out, 'email_verified', user.emailVerified);
    putIf(out, 'notify_props', user.notifyProps);
    putIf(out, 'last_password_update', user.lastPasswordUpdate);
    putIf(out, 'last_activity_at', user.lastActivityAt);
    putIf(out, 'failed_attempts', user.failedAttempts);
  }
  putIf(out, 'is_bot', user.isBot);
  if (bot) {
    putIf(out, 'bot_description', bot.description);
    putIf(out, 'bot_last_icon_update', bot.lastIconUpdate);
  }
  return out;
}

export function presentUsers(views: readonly UserView[], callerId: string, admin: boolean, config: Readonly<SystemConfig>): Json[] {
  return views.map((view) => presentUser(view, { self: view.user.id === callerId, admin, config }));
}

/** Bot JSON (§4) plus the computed `system_owned`. */
export function presentBot(view: BotView): Json {
  const { bot } = view;
  const out: Json = { user_id: bot.id, username: view.username };
  putIf(out, 'display_name', bot.displayName);
  putIf(out, 'description', bot.description);
  out.owner_id = bot.ownerId;
  putIf(out, 'last_icon_update', bot.lastIconUpdate);
  out.create_at = bot.createAt;
  out.update_at = bot.updateAt;
  out.delete_at = bot.deleteAt;
  out.system_owned = isSystemOwned(bot);
  return out;
}

/** UserAccessToken JSON (§5); `token` only in the creation answer. */
export function presentToken(token: AccessToken, secret?: string): Json {
  return {
    id: token.id,
    ...(secret !== undefined ? { token: secret } : {}),
    user_id: token.userId,
    description: token.description,
    is_active: token.isActive,
    expires_at: token.expiresAt,
  };
}

export function presentTeam(team: Team): Json {
  const out: Json = {
    id: team.id,
    create_at: team.createAt,
    update_at: team.updateAt,
    delete_at: team.deleteAt,
    display_name: team.displayName,
    name: team.name,
    description: team.description,
    email: team.email,
    type: team.type,
    company_name: team.companyName,
    allowed_domains: team.allowedDomains,
    invite_id: team.inviteId,
    allow_open_invite: team.allowOpenInvite,
    scheme_id: null,
    group_constrained: null,
    policy_id: null,
  };
  putIf(out, 'last_team_icon_update', team.lastTeamIconUpdate);
  return out;
}

/** The internal API's team (posts needs its name, type and whether it is deleted). */
export function presentInternalTeam(team: Team): InternalTeam {
  return { id: team.id, name: team.name, display_name: team.displayName, type: team.type, delete_at: team.deleteAt };
}

export function presentTeamMember(member: TeamMember): Json {
  return {
    team_id: member.teamId,
    user_id: member.userId,
    roles: teamMemberRoles(member),
    delete_at: member.deleteAt,
    scheme_guest: member.schemeGuest,
    scheme_user: member.schemeUser,
    scheme_admin: member.schemeAdmin,
    explicit_roles: member.explicitRoles,
    create_at: member.createAt,
  };
}

/** Session JSON with the token blanked, as the reference's sanitised sessions. */
export function presentSession(session: Session, roles: string): Json {
  return {
    id: session.id,
    token: '',
    create_at: session.createAt,
    expires_at: session.expiresAt,
    last_activity_at: session.lastActivityAt,
    user_id: session.userId,
    device_id: session.deviceId,
    roles,
    is_oauth: false,
    props: {
      ...(session.type === 'UserAccessToken' ? { type: 'UserAccessToken', user_access_token_id: session.tokenId } : {}),
      ...(session.isBot ? { is_bot: 'true' } : {}),
    },
    team_members: [],
    local: false,
  };
}

export function presentInternalUser(user: User): InternalUser {
  return {
    id: user.id,
    username: user.username,
    roles: user.roles,
    isBot: user.isBot,
    deleteAt: user.deleteAt,
    firstName: user.firstName,
    lastName: user.lastName,
    nickname: user.nickname,
  };
}
