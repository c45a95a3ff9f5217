import type { TeamEventType, UsersEventPayload, UsersEventType } from '@switchyard/contracts';
import type { SystemConfig } from '@switchyard/system-config';
import type { Clock } from '@switchyard/ids';
import type {
  AccessToken,
  Bot,
  BotChanges,
  Session,
  Team,
  TeamMember,
  TeamMemberChanges,
  User,
  UserChanges,
} from './entities';
import type { PostAccess, PreferenceRepository } from './preferences/preference-ports';
import type { Preference } from './preferences/preference';

/**
 * Repository ports. Shaped for a document store: single-document writes, no transactions, plain
 * objects in and out (adapters return copies), unique constraints enforced by the adapter, which throws
 * `DuplicateKeyError` (domain/errors.ts) naming the violated key. Every adapter runs the contract suites
 * in adapters/contracts/ (index.ts lists them).
 */
export interface Page {
  readonly page: number;
  readonly perPage: number;
}

export interface UserQuery extends Page {
  /** Only these ids. */
  readonly ids?: readonly string[];
  /** Never these ids. */
  readonly excludeIds?: readonly string[];
  /** true: deleteAt = 0; false: deleteAt > 0; undefined: both. */
  readonly active?: boolean;
  /** Users whose roles include every one of these. */
  readonly role?: string;
  /** Users whose roles include at least one of these. */
  readonly anyRole?: readonly string[];
  /** updateAt > since */
  readonly updatedSince?: number;
  /** Default `username` (ascending); `create_at` and `last_activity_at` are newest first. */
  readonly sort?: 'username' | 'create_at' | 'last_activity_at';
}

export interface UserRepository {
  /** Unique: id, username, email → DuplicateKeyError('id' | 'username' | 'email'). */
  insert(user: User): Promise<void>;
  /** Sets the given fields; the same unique keys apply. Returns the updated user, undefined if missing. */
  update(id: string, changes: UserChanges): Promise<User | undefined>;
  /**
   * One atomic step (an `$inc` guarded by the current value): adds one to `failedAttempts` when it is
   * below `limit` and returns true; returns false, changing nothing, when it has reached `limit` or the
   * user is missing. Concurrent callers never both pass the last free attempt.
   */
  reserveLoginAttempt(id: string, limit: number): Promise<boolean>;
  delete(id: string): Promise<boolean>;
  findById(id: string): Promise<User | undefined>;
  findByIds(ids: readonly string[]): Promise<User[]>;
  findByUsername(username: string): Promise<User | undefined>;
  findByUsernames(usernames: readonly string[]): Promise<User[]>;
  findByEmail(email: string): Promise<User | undefined>;
  search(query: UserQuery): Promise<User[]>;
  /** Users that are not bots, deactivated ones included (the first-user rule). */
  countHumans(): Promise<number>;
}

/**
 * Users for the hot public reads (`GET /users/me`, `GET /users/{id}`): may answer from a short-lived
 * cache that every change evicts. Logins, permission checks and writes read `UserRepository` instead.
 */
export interface CachedUsers {
  cached(id: string): Promise<User | undefined>;
}

export interface SessionRepository {
  /** Unique: id, tokenHash → DuplicateKeyError('id' | 'tokenHash'). */
  insert(session: Session): Promise<void>;
  findById(id: string): Promise<Session | undefined>;
  findByTokenHash(tokenHash: string): Promise<Session | undefined>;
  listByUser(userId: string): Promise<Session[]>;
  deleteById(id: string): Promise<boolean>;
  /** Returns the ids deleted. */
  deleteByUser(userId: string): Promise<string[]>;
  deleteByTokenId(tokenId: string): Promise<string[]>;
}

export interface AccessTokenRepository {
  /** Unique: id, tokenHash → DuplicateKeyError('id' | 'tokenHash'). */
  insert(token: AccessToken): Promise<void>;
  findById(id: string): Promise<AccessToken | undefined>;
  findByTokenHash(tokenHash: string): Promise<AccessToken | undefined>;
  /** Oldest first. */
  listByUser(userId: string, page: Page): Promise<AccessToken[]>;
  listAll(page: Page): Promise<AccessToken[]>;
  setActive(id: string, isActive: boolean): Promise<AccessToken | undefined>;
  deleteById(id: string): Promise<boolean>;
  deleteByUser(userId: string): Promise<string[]>;
}

export interface BotQuery extends Page {
  readonly ownerId?: string;
  readonly ownerIds?: readonly string[];
  readonly includeDeleted: boolean;
}

export interface BotRepository {
  /** Unique: id → DuplicateKeyError('id'). */
  insert(bot: Bot): Promise<void>;
  update(id: string, changes: BotChanges): Promise<Bot | undefined>;
  delete(id: string): Promise<boolean>;
  findById(id: string): Promise<Bot | undefined>;
  findByIds(ids: readonly string[]): Promise<Bot[]>;
  /** Oldest first (createAt, then id). */
  list(query: BotQuery): Promise<Bot[]>;
  /** Every bot of an owner, disabled ones included. */
  findByOwner(ownerId: string): Promise<Bot[]>;
}

export interface TeamRepository {
  /** Unique: id, name → DuplicateKeyError('id' | 'name'). */
  insert(team: Team): Promise<void>;
  findById(id: string): Promise<Team | undefined>;
  findByName(name: string): Promise<Team | undefined>;
  findByIds(ids: readonly string[]): Promise<Team[]>;
}

export interface TeamMemberRepository {
  /** Unique: (teamId, userId) → DuplicateKeyError('member'). */
  insert(member: TeamMember): Promise<void>;
  update(teamId: string, userId: string, changes: TeamMemberChanges): Promise<TeamMember | undefined>;
  find(teamId: string, userId: string): Promise<TeamMember | undefined>;
  /** Active members (deleteAt = 0), oldest first. */
  listByTeam(teamId: string, page: Page): Promise<TeamMember[]>;
  /** Active memberships of a user, oldest first. */
  listByUser(userId: string): Promise<TeamMember[]>;
  countActive(teamId: string): Promise<number>;
  /** Ids of active members of the team. */
  userIdsInTeam(teamId: string): Promise<string[]>;
  /** Ids of users with at least one active membership. */
  userIdsWithAnyTeam(): Promise<string[]>;
  deleteByUser(userId: string): Promise<number>;
}

export interface ConfigRepository {
  /** The stored document, undefined before the first save. */
  load(): Promise<Record<string, unknown> | undefined>;
  save(config: SystemConfig): Promise<void>;
}

/** A stored picture: a profile image (PNG) or a bot icon (sanitised SVG). */
export interface StoredImage {
  readonly contentType: string;
  readonly data: Buffer;
  /** ms */
  readonly updateAt: number;
}

/**
 * Pictures by key (`users/<id>/profile.png`, `bots/<id>/icon.svg`). `put` replaces what the key held in
 * one step: a reader sees the old picture or the new one, never a mix. Adapters refuse pictures larger
 * than MAX_STORED_IMAGE_BYTES.
 */
export interface ImageStore {
  put(key: string, image: StoredImage): Promise<void>;
  get(key: string): Promise<StoredImage | undefined>;
  /** True when something was deleted. */
  delete(key: string): Promise<boolean>;
}

/** The most any adapter stores under one key (MongoDB documents are capped at 16 MiB). */
export const MAX_STORED_IMAGE_BYTES = 8 * 1024 * 1024;

export interface Repositories {
  readonly images: ImageStore;
  /** User preferences (`/users/{id}/preferences`). */
  readonly preferences: PreferenceRepository;
  readonly users: UserRepository;
  readonly sessions: SessionRepository;
  readonly tokens: AccessTokenRepository;
  readonly bots: BotRepository;
  readonly teams: TeamRepository;
  readonly members: TeamMemberRepository;
  readonly configStore: ConfigRepository;
}

export type { Clock };

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Constant-time comparison; false for an empty stored hash. */
  verify(password: string, stored: string): Promise<boolean>;
}

/** What the domain announces; published before the HTTP answer so caches are evicted first. */
export interface DomainEvents {
  users(type: UsersEventType, payload: UsersEventPayload): Promise<void>;
  /** team.created (userId = the creator) and team.member_added (userId = who joined); keyed by team id. */
  teams(type: TeamEventType, payload: { readonly teamId: string; readonly userId: string }): Promise<void>;
  configUpdated(config: SystemConfig): Promise<void>;
  /** The user's preferences were saved or deleted (their sockets get `preferences_changed`/`_deleted`); best effort. */
  preferences?(kind: 'changed' | 'deleted', userId: string, preferences: readonly Preference[]): Promise<void>;
}

/**
 * The team's default channels (owned by posts): town-square and off-topic exist and the user is in both
 * once this resolves, when posts is reachable. Never throws: the team event is the fallback.
 */
export interface TeamChannels {
  joinDefault(teamId: string, userId: string): Promise<void>;
}

/**
 * The FileSettings keys the file service's environment fixes (`MM_FILESETTINGS_*`, owned by posts): what
 * `GET /config` shows in effect, and what a config write may not change in the document. Never throws: {}
 * when posts cannot say (the document is shown as it is).
 */
export interface FileSettingsOverrides {
  current(): Promise<Partial<SystemConfig['FileSettings']>>;
}

/** The service's live config: read by every use case, replaced by the config use cases. */
export interface LiveConfig {
  current(): Readonly<SystemConfig>;
  replace(config: SystemConfig): void;
}

/** Why an uploaded picture was refused. */
export type PictureRejection =
  /** Not a PNG, JPEG or GIF by its first bytes, or its header does not read (reference: decode_config). */
  | 'format'
  /** Width × height over the limit (a decompression bomb or simply too large). */
  | 'dimensions'
  /** The header reads but the pixels do not decode. */
  | 'corrupt';

export type ProfilePictureResult = { readonly ok: true; readonly png: Buffer } | { readonly ok: false; readonly reason: PictureRejection; readonly detail: string };

/** The image work behind pictures; adapters use maintained libraries (adapters/images). */
export interface PictureProcessor {
  /**
   * The SVG with everything that could run or fetch removed (script, foreignObject, event handlers,
   * references outside the document); undefined when the bytes are not a well-formed SVG document.
   */
  sanitizeSvg(data: Buffer): Promise<Buffer | undefined>;
  /** A PNG, JPEG or GIF upload as the 128×128 PNG profile picture (centred, cropped to fill). */
  profilePicture(data: Buffer): Promise<ProfilePictureResult>;
  /** The default picture: a 128×128 PNG of `initial` on a colour chosen from `seed` (the user id). */
  initialsPicture(initial: string, seed: string): Promise<Buffer>;
}

/** Everything a use case may touch. */
export interface Deps extends Repositories {
  readonly pictures: PictureProcessor;
  readonly cachedUsers: CachedUsers;
  readonly clock: Clock;
  readonly passwords: PasswordHasher;
  readonly events: DomainEvents;
  readonly teamChannels: TeamChannels;
  readonly liveConfig: LiveConfig;
  readonly fileSettingsOverrides?: FileSettingsOverrides;
  /** Posts as preferences need them (a flagged post must be readable); absent: flagged posts are not checked. */
  readonly postAccess?: PostAccess;
}
