import type { TeamEventType, UsersEventPayload, UsersEventType } from '@switchyard/contracts';
import type { SystemConfig } from '@switchyard/system-config';
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

/**
 * Repository ports. Shaped for a document store: single-document writes, no transactions, plain
 * objects in and out (adapters return copies), unique constraints enforced by the adapter, which throws
 * `DuplicateKeyError` (domain/errors.ts) naming the violated key. Every adapter runs the contract suites
 * in adapters/repository-contracts.ts.
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

export interface Repositories {
  readonly users: UserRepository;
  readonly sessions: SessionRepository;
  readonly tokens: AccessTokenRepository;
  readonly bots: BotRepository;
  readonly teams: TeamRepository;
  readonly members: TeamMemberRepository;
  readonly configStore: ConfigRepository;
}

export interface Clock {
  now(): number;
}

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
}

/** The service's live config: read by every use case, replaced by the config use cases. */
export interface LiveConfig {
  current(): Readonly<SystemConfig>;
  replace(config: SystemConfig): void;
}

/** Everything a use case may touch. */
export interface Deps extends Repositories {
  readonly cachedUsers: CachedUsers;
  readonly clock: Clock;
  readonly passwords: PasswordHasher;
  readonly events: DomainEvents;
  readonly liveConfig: LiveConfig;
}
