/**
 * Stored shapes (plain objects, camelCase, `id` as the key). The wire JSON (snake_case, sanitised) is
 * built by the HTTP presenters; nothing here knows about HTTP.
 */
export interface User {
  readonly id: string;
  readonly username: string;
  readonly email: string;
  readonly emailVerified: boolean;
  /** scrypt hash; '' when the user has no password sign-in (bots, converted users, SSO). */
  readonly passwordHash: string;
  readonly authService: string;
  readonly authData: string | null;
  readonly nickname: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly position: string;
  /** Space-separated system roles, e.g. `system_user` or `system_admin system_user`. */
  readonly roles: string;
  readonly locale: string;
  readonly props: Readonly<Record<string, string>>;
  readonly notifyProps: Readonly<Record<string, string>>;
  /** null only after a whole-user update (`PUT /users/{id}`) without one, as the reference stores and answers it. */
  readonly timezone: Readonly<Record<string, string>> | null;
  readonly isBot: boolean;
  readonly mfaActive: boolean;
  readonly createAt: number;
  readonly updateAt: number;
  /** 0 = active; otherwise when the user was deactivated (ms). */
  readonly deleteAt: number;
  readonly lastPasswordUpdate: number;
  readonly lastPictureUpdate: number;
  readonly lastActivityAt: number;
  readonly lastLogin: number;
  readonly failedAttempts: number;
}

export type UserChanges = Partial<Omit<User, 'id' | 'createAt'>>;

/** The Bots row; `id` is the bot's user id. Username and email live on the user. */
export interface Bot {
  readonly id: string;
  readonly displayName: string;
  readonly description: string;
  /** A user id, or SYSTEM_BOT_OWNER for bots the system owns. */
  readonly ownerId: string;
  readonly createAt: number;
  readonly updateAt: number;
  readonly deleteAt: number;
  readonly lastIconUpdate: number;
}

export type BotChanges = Partial<Omit<Bot, 'id' | 'createAt'>>;

export type SessionType = 'session' | 'UserAccessToken';

export interface Session {
  readonly id: string;
  /** sha256 (hex) of the bearer token; the token itself is never stored. */
  readonly tokenHash: string;
  readonly userId: string;
  readonly type: SessionType;
  /** The personal access token behind a UserAccessToken session; '' otherwise. */
  readonly tokenId: string;
  readonly csrfToken: string;
  readonly isBot: boolean;
  readonly deviceId: string;
  readonly createAt: number;
  /** ms; 0 = never (PAT sessions). */
  readonly expiresAt: number;
  readonly lastActivityAt: number;
}

export interface AccessToken {
  readonly id: string;
  readonly tokenHash: string;
  readonly userId: string;
  readonly description: string;
  readonly isActive: boolean;
  /** ms; 0 = never. */
  readonly expiresAt: number;
  readonly createAt: number;
}

export type TeamType = 'O' | 'I';

export interface Team {
  readonly id: string;
  readonly name: string;
  readonly displayName: string;
  readonly description: string;
  readonly email: string;
  readonly type: TeamType;
  readonly companyName: string;
  readonly allowedDomains: string;
  readonly inviteId: string;
  readonly allowOpenInvite: boolean;
  readonly createAt: number;
  readonly updateAt: number;
  readonly deleteAt: number;
  readonly lastTeamIconUpdate: number;
}

export interface TeamMember {
  readonly teamId: string;
  readonly userId: string;
  readonly schemeGuest: boolean;
  readonly schemeUser: boolean;
  readonly schemeAdmin: boolean;
  readonly explicitRoles: string;
  readonly createAt: number;
  readonly deleteAt: number;
}

export type TeamMemberChanges = Partial<Omit<TeamMember, 'teamId' | 'userId' | 'createAt'>>;

/** A team member's effective roles string, as the reference shows it (`team_user team_admin`). */
export function teamMemberRoles(member: TeamMember): string {
  const roles: string[] = [];
  if (member.schemeGuest) roles.push('team_guest');
  if (member.schemeUser) roles.push('team_user');
  if (member.schemeAdmin) roles.push('team_admin');
  if (member.explicitRoles !== '') roles.push(member.explicitRoles);
  return roles.join(' ');
}

/** Owner id of the bots the system itself owns (the `switchyard` bot). */
export const SYSTEM_BOT_OWNER = 'system';
export const SYSTEM_BOT_USERNAME = 'switchyard';

export function isSystemOwned(bot: Bot): boolean {
  return bot.ownerId === SYSTEM_BOT_OWNER;
}

export const DEFAULT_NOTIFY_PROPS: Readonly<Record<string, string>> = {
  email: 'true',
  push: 'mention',
  desktop: 'mention',
  desktop_sound: 'true',
  mention_keys: '',
  channel: 'true',
  push_status: 'away',
  comments: 'never',
  first_name: 'false',
  desktop_threads: 'all',
  email_threads: 'all',
  push_threads: 'all',
};

export const DEFAULT_TIMEZONE: Readonly<Record<string, string>> = {
  automaticTimezone: '',
  manualTimezone: '',
  useAutomaticTimezone: 'true',
};

/** A user with the reference's new-user defaults; callers set what they know. */
export function newUser(fields: Pick<User, 'id' | 'username' | 'email' | 'createAt'> & Partial<User>): User {
  return {
    emailVerified: false,
    passwordHash: '',
    authService: '',
    authData: null,
    nickname: '',
    firstName: '',
    lastName: '',
    position: '',
    roles: 'system_user',
    locale: 'en',
    props: {},
    notifyProps: { ...DEFAULT_NOTIFY_PROPS },
    timezone: { ...DEFAULT_TIMEZONE },
    isBot: false,
    mfaActive: false,
    updateAt: fields.createAt,
    deleteAt: 0,
    lastPasswordUpdate: 0,
    lastPictureUpdate: 0,
    lastActivityAt: 0,
    lastLogin: 0,
    failedAttempts: 0,
    ...fields,
  };
}

/** "First Last", else the username: the display name a converted user's bot gets. */
export function fullNameOrUsername(user: User): string {
  const full = `${user.firstName} ${user.lastName}`.trim();
  return full === '' ? user.username : full;
}
