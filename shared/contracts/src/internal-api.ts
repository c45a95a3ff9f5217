/**
 * Internal HTTP APIs between services, callable only with a service credential (http-kit serviceCredential;
 * never a user identity), never routed by the gateway (the gateway only forwards
 * `/api/v4/*` and `/hooks/*`). Bodies are JSON.
 */
export const InternalPaths = {
  /** users-bots: POST {token} → ResolvedSession, or 401 api.context.session_expired.app_error */
  resolveToken: '/internal/v1/auth/resolve',
  /** users-bots: GET → the full system config (secrets included) */
  config: '/internal/v1/config',
  /** users-bots: POST {ids: string[]} → InternalUser[] */
  usersByIds: '/internal/v1/users/by-ids',
  /** users-bots (posts only): POST {ids: string[]} (≤1,000) → `{values: {<user id>: "on" | "off" | …}}`, the `display_settings`/`collapsed_reply_threads` preference of the users that set one. */
  crtPreferences: '/internal/v1/users/crt-preferences',
  /**
   * users-bots (posts only): POST {ids: string[]} (≤1,000) → `{settings: {<user id>: UserMentionSettings}}`, only for the users
   * whose mention settings differ from the defaults (mention keys set, first-name mentions on with a first name, channel-wide
   * mentions off, or comments `root`/`any`); the others are left out.
   */
  mentionSettings: '/internal/v1/users/mention-settings',
  /** users-bots: POST {usernames: string[]} → InternalUser[] */
  usersByUsernames: '/internal/v1/users/by-usernames',
  /**
   * users-bots (realtime only): POST {id} → UserUpdatedCopies, the User JSON of `user_updated` as the
   * reference sends it to each audience; 404 `app.user.missing_account.const` for an unknown user.
   */
  userUpdatedCopies: '/internal/v1/users/updated-copies',
  /** users-bots: GET /internal/v1/teams/{teamId}/members/{userId} → TeamMember or 404 */
  teamMember: '/internal/v1/teams',
  /** users-bots (posts only): POST {team_id?, user_ids (≤ 100)} → the ids among them with an active membership in that team (any team without team_id) */
  teamMembersAmong: '/internal/v1/team-members/among',
  /** users-bots: GET → InternalTeam (deleted teams included; check delete_at), or 404 `app.team.get.find.app_error` */
  team: (teamId: string) => `/internal/v1/teams/${encodeURIComponent(teamId)}`,
  /** users-bots: GET → InternalTeam by (lower-cased) name, or 404 `app.team.get_by_name.missing.app_error` */
  teamByName: (name: string) => `/internal/v1/teams/name/${encodeURIComponent(name)}`,
  /**
   * users-bots (incoming-hooks only): POST {username} (one of INTEGRATION_BOTS) → IntegrationSender: the
   * integration's system-owned bot, created on first use; when an ordinary user holds the name, that user
   * (is_bot false) and an error in users-bots' log naming the fixes.
   */
  integrationBot: '/internal/v1/bots/integration',
  /** users-bots (outgoing-dispatch only): GET → InternalBot (disabled bots included: check delete_at), or 404 when no such bot */
  bot: (botUserId: string) => `/internal/v1/bots/${encodeURIComponent(botUserId)}`,
} as const;

/** A bot as outgoing-dispatch needs it for bot hooks: who owns it, and whether it is disabled. */
export interface InternalBot {
  readonly user_id: string;
  /** A user id, or the system's owner marker for bots the system owns. */
  readonly owner_id: string;
  readonly delete_at: number;
}

/** The built-in integrations' bots (incoming hook templates): username → display name. */
export const INTEGRATION_BOTS: Readonly<Record<string, string>> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  alertmanager: 'Alertmanager',
  grafana: 'Grafana',
  sentry: 'Sentry',
};

/** Who an integration posts as. */
export interface IntegrationSender {
  readonly user_id: string;
  readonly is_bot: boolean;
}

/** A team as other services need it (no visibility check: internal only). Wire names as the public Team. */
export interface InternalTeam {
  readonly id: string;
  readonly name: string;
  readonly display_name: string;
  /** `O` open, `I` invite only. */
  readonly type: string;
  readonly delete_at: number;
  /** Present in users-bots' answers (the whole team is sent). */
  readonly update_at?: number;
}

/** What users-bots answers for a valid token. */
export interface ResolvedSession {
  readonly userId: string;
  readonly sessionId: string;
  readonly roles: string;
  readonly isBot: boolean;
  readonly sessionType: 'session' | 'UserAccessToken';
  readonly tokenId?: string;
  /** The session's CSRF value (for cookie-authenticated, non-GET requests). */
  readonly csrfToken: string;
  /** ms since epoch; 0 = never (PATs, bot tokens). */
  readonly expiresAt: number;
}

/** A user as other services need it (not sanitised: internal only). */
/** The three copies of `user_updated.data.user` (real User JSON objects, as `GET /users/{id}` would answer each). */
export interface UserUpdatedCopies {
  /** For system admins (`contains_sensitive_data`): e-mail, names and auth_service always shown. */
  readonly admin: Readonly<Record<string, unknown>>;
  /** For everyone else (`contains_sanitized_data`): e-mail and names as PrivacySettings allow. */
  readonly sanitized: Readonly<Record<string, unknown>>;
  /** For the user themself: self-sanitised (no password, MFA secret or auth data). */
  readonly self: Readonly<Record<string, unknown>>;
}

/** What a user's notify props say about who mentions them (the reference's MentionKeywords.AddUser). */
export interface UserMentionSettings {
  /** `mention_keys` split at commas, trimmed, empty ones dropped (the reference's GetMentionKeys); matched case-insensitively. */
  readonly mention_keys: readonly string[];
  /** The first name when `first_name` is `"true"` (matched case-sensitively), else `""`. */
  readonly first_name: string;
  /** `channel` is `"true"`: `@channel`, `@all` and `@here` may mention the user. */
  readonly channel: boolean;
  /**
   * `comments` when `root` or `any` (the reference's CommentsNotifyProp): replies in threads the user started (`root`) or
   * wrote in (`any`) mention them while they do not see collapsed threads; absent means `never`.
   */
  readonly comments?: 'root' | 'any';
}

export interface InternalUser {
  readonly id: string;
  readonly username: string;
  readonly roles: string;
  readonly isBot: boolean;
  readonly deleteAt: number;
  readonly firstName: string;
  readonly lastName: string;
  readonly nickname: string;
}

/**
 * realtime's internal API (posts only): statuses live with the sockets (docs/adr/0012).
 * - `onlineUsers`: POST {ids: string[]} (at most 1,000) → `{online: string[]}`, the ids whose status is
 *   exactly `online` (what `@here` mentions); `{online: []}` while EnableUserStatuses is off.
 */
export const RealtimeInternalPaths = {
  onlineUsers: '/internal/v1/statuses/online',
} as const;

/** Service names used by transports and the gateway's route table. */
export const Services = {
  gateway: 'gateway',
  usersBots: 'users-bots',
  posts: 'posts',
  incomingHooks: 'incoming-hooks',
  outgoingDispatch: 'outgoing-dispatch',
  realtime: 'realtime',
} as const;

export type ServiceName = (typeof Services)[keyof typeof Services];

/**
 * posts' internal API (called by incoming-hooks and outgoing-dispatch with their service credential, http-kit `serviceCredential`).
 * Errors are Mattermost AppErrors (404 `app.channel.get.existing.app_error` for an unknown channel,
 * `app.post.get.app_error` for an unknown post).
 */
export const PostsInternalPaths = {
  /** GET → InternalChannel (archived ones included; check delete_at). */
  channel: (channelId: string) => `/internal/v1/channels/${encodeURIComponent(channelId)}`,
  /** GET → InternalChannel by team and name (archived included), or 404. */
  channelByName: (teamId: string, name: string) => `/internal/v1/teams/${encodeURIComponent(teamId)}/channels/name/${encodeURIComponent(name)}`,
  /** POST {user_ids:[a,b]} → InternalChannel: the direct channel `<smaller>__<larger>`, created if needed. */
  directChannel: '/internal/v1/channels/direct',
  /** GET → InternalChannelMember, or 404 `app.channel.get_member.missing.app_error`. */
  channelMember: (channelId: string, userId: string) => `/internal/v1/channels/${encodeURIComponent(channelId)}/members/${encodeURIComponent(userId)}`,
  /** GET → `{user_ids: string[]}`: every member of the channel (realtime's delivery filter), or 404 for an unknown channel. */
  channelMemberIds: (channelId: string) => `/internal/v1/channels/${encodeURIComponent(channelId)}/member-ids`,
  /** GET → InternalPostView: the stored post (action integrations included) with its channel. */
  post: (postId: string) => `/internal/v1/posts/${encodeURIComponent(postId)}`,
  /**
   * PUT {message?, props?} → WirePost: an integration's `update` of a post (interactive action answer).
   * `props` replaces the map except `from_webhook`, `from_bot`, `override_*` and `webhook_display_name`,
   * which keep their stored values; attachments are normalised as on create.
   */
  updatePost: (postId: string) => `/internal/v1/posts/${encodeURIComponent(postId)}`,
  /**
   * POST CreatePostCommandPayload → WirePost (201 created, 200 when the post id already existed): the
   * same create as a `post.create` on posts.commands (idempotent by post id, post.created from the
   * outbox), answered once the post is stored, so it is readable through the API when the call returns.
   * For outgoing-webhook replies, whose delivery is recorded as delivered only after the reply exists.
   */
  createPost: '/internal/v1/posts',
  /**
   * POST (no body) → 204: the team's town-square and off-topic exist and the user is a member of both
   * (created if needed; idempotent). Called by users-bots inside `POST /teams` and `POST /teams/{id}/members`,
   * so the channels are there when those answer, as the reference's; the team event does the same again.
   * 404 `app.team.get.find.app_error` style for a team users-bots does not know.
   */
  /**
   * POST {file_ids: string[] (at most 100)} → `{files: InternalFileOwner[]}`: who uploaded each known file
   * (deleted ones included: check delete_at); unknown ids are left out. For a dialog's `file_ids` (11.10).
   */
  fileOwners: '/internal/v1/files/owners',
  /**
   * POST `?channel_id=&user_id=` with a multipart body of `files` parts (incoming-hooks only) → 201
   * `{file_infos}`: the files of an incoming hook's post, uploaded as `user_id` (the post's author) into the
   * hook's destination channel, which the hook's own checks chose; the `POST /files` limits and checks apply
   * (attachments on, MaxFileSize, names, images), all files checked before any is stored.
   */
  hookFiles: '/internal/v1/hook-files',
  /**
   * POST {user_id, file_ids} (incoming-hooks only) → `{discarded: n}`: drops files of `hookFiles` that no post
   * took (the post was refused): only that user's files not attached to any post.
   */
  discardHookFiles: '/internal/v1/hook-files/discard',
  /**
   * GET (users-bots only) → `{overrides: {<FileSettings key>: value}}`: the FileSettings keys posts' environment
   * fixes (`MM_FILESETTINGS_*`), so `GET /config` shows the settings in effect; the secret key comes masked.
   */
  fileSettingsOverrides: '/internal/v1/file-settings/overrides',
  defaultChannels: (teamId: string, userId: string) => `/internal/v1/teams/${encodeURIComponent(teamId)}/members/${encodeURIComponent(userId)}/default-channels`,
} as const;

export interface InternalFileOwner {
  readonly id: string;
  readonly user_id: string;
  readonly delete_at: number;
}

export interface InternalPostView {
  readonly post: import('./posts-model').WirePost;
  readonly channel: import('./posts-model').InternalChannel;
}
