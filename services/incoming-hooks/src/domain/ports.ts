import type { Readable } from 'node:stream';
import type { InternalChannel, InternalUser, WirePost, WirePostPriority, PostSource } from '@switchyard/contracts';
import type { SystemConfig } from '@switchyard/system-config';
import type { IdempotencyRecord, IncomingHook, IncomingHookChanges, StoredResponse } from './entities';
import type { Clock, IdGenerator } from '@switchyard/ids';
import type { TransformEngine } from './transform/transform-engine';

/**
 * Ports of the incoming-hooks domain. Repositories are shaped for a document store (single-document
 * writes, plain objects in and out); every adapter runs the contract suites in adapters/contracts.
 */
export interface HookQuery {
  readonly teamId?: string;
  readonly userId?: string;
  readonly page: number;
  readonly perPage: number;
}

export interface IncomingHookRepository {
  /** Unique: id → DuplicateKeyError('id'). */
  insert(hook: IncomingHook): Promise<void>;
  update(id: string, changes: IncomingHookChanges): Promise<IncomingHook | undefined>;
  /** Deleted ones included (check deleteAt). */
  findById(id: string): Promise<IncomingHook | undefined>;
  /** Live hooks (deleteAt = 0), oldest first (createAt, then id). */
  list(query: HookQuery): Promise<IncomingHook[]>;
  count(query: Omit<HookQuery, 'page' | 'perPage'>): Promise<number>;
}

export type ReserveResult =
  /** `since`: when the key's first try reserved it (a retry after a release keeps it; see retryIds). */
  | { readonly kind: 'reserved'; readonly since: number }
  | { readonly kind: 'existing'; readonly record: IdempotencyRecord };

/** The owner of a released reservation: the next request with the key takes it over, keeping its `createAt`. */
export const RELEASED_OWNER = '';

export interface IdempotencyRepository {
  /**
   * Atomically claims (hookId, key) for `owner`. A record older than `expiredBefore` counts as absent
   * and is taken over; so is a released one within the window, keeping its `createAt` (`since`).
   * Otherwise the existing record is returned (with or without its response).
   */
  reserve(record: IdempotencyRecord, expiredBefore: number): Promise<ReserveResult>;
  /** Stores the answer on the owner's reservation. */
  complete(hookId: string, key: string, owner: string, response: StoredResponse): Promise<void>;
  /**
   * Gives up the owner's reservation (the request failed in a way worth retrying): the record stays, owned
   * by RELEASED_OWNER, so the retry that takes it over keeps the first try's `createAt`.
   */
  release(hookId: string, key: string, owner: string): Promise<void>;
  find(hookId: string, key: string): Promise<IdempotencyRecord | undefined>;
  /** Deletes records created before the time; returns how many. */
  purge(createdBefore: number): Promise<number>;
}

export interface Repositories {
  readonly hooks: IncomingHookRepository;
  readonly idempotency: IdempotencyRepository;
}

/** Channels and memberships (posts' internal API). */
export interface ChannelDirectory {
  /** Archived channels included; undefined when unknown. */
  channel(channelId: string): Promise<InternalChannel | undefined>;
  channelByName(teamId: string, name: string): Promise<InternalChannel | undefined>;
  /** The direct channel of two users, created if needed. */
  directChannel(userA: string, userB: string): Promise<InternalChannel>;
  /** The member's channel roles, undefined when not a member. */
  memberRoles(channelId: string, userId: string): Promise<string | undefined>;
  /** A post as stored (deleted ones included: check delete_at), undefined when unknown. */
  post(postId: string): Promise<Pick<WirePost, 'id' | 'channel_id' | 'root_id' | 'delete_at'> | undefined>;
}

/** Users and team memberships (users-bots' internal API). */
export interface UserDirectory {
  usersByIds(ids: readonly string[]): Promise<InternalUser[]>;
  usersByUsernames(usernames: readonly string[]): Promise<InternalUser[]>;
  /** The member's team roles (`team_user team_admin`), undefined when not an active member. */
  teamRoles(teamId: string, userId: string): Promise<string | undefined>;
  /** Who a built-in integration (`github`, ...) posts as: its bot, created on first use, or the ordinary user holding its name. */
  integrationSender(username: string): Promise<{ readonly userId: string; readonly isBot: boolean }>;
}

export interface NewPost {
  readonly id: string;
  readonly channel_id: string;
  readonly user_id: string;
  readonly message: string;
  readonly type: string;
  readonly props: Readonly<Record<string, unknown>>;
  /** The thread the post replies to; '' for a root post. */
  readonly root_id: string;
  readonly create_at: number;
  readonly priority?: WirePostPriority;
  /** Files uploaded for this post (its hook request's, through HookFiles). */
  readonly file_ids?: readonly string[];
}

/** A file part of a multipart hook request, kept out of memory (spooled as it arrived) until posts takes it. */
export interface HookFile {
  readonly name: string;
  readonly size: number;
  /** Its bytes, from the start (a new stream each call). */
  read(): Readable;
}

/**
 * The files of a hook's post, stored by posts (which owns file infos, ADR 0022): uploaded as the post's
 * author into the destination channel with the `POST /files` checks (all checked before any is stored),
 * and discarded again when the post is then refused.
 */
export interface HookFiles {
  /**
   * The new files' ids, in order; rejects with posts' error (nothing stored) when one is refused. With
   * `fileIds` (a request with an Idempotency-Key) the files get those ids, and a file an earlier try of
   * the same request stored under one is kept as it is (no second copy).
   */
  upload(channelId: string, userId: string, files: readonly HookFile[], fileIds?: readonly string[]): Promise<string[]>;
  /** Drops those of the files that no post took (best effort). */
  discard(userId: string, fileIds: readonly string[]): Promise<void>;
}

/** When a create is acknowledged (`ServiceSettings.IncomingWebhookAckMode`). */
export type CreateAck = 'stored' | 'queued';

export interface PostCommandMeta {
  readonly source: PostSource;
  readonly hookId?: string;
  readonly requestId?: string;
  /** `queued`: resolve once the commands are durably on the bus. `stored`: once every post is readable. */
  readonly until: CreateAck;
}

/**
 * posts.commands, in order, keyed by channel. With `until: 'stored'` it resolves only once posts stored
 * every post, rejects with posts' own error when it refused one, and with `Errors.storeTimeout()` when
 * no answer came in time (the commands stay queued: the posts may still appear).
 */
export interface PostCommands {
  create(posts: readonly NewPost[], meta: PostCommandMeta): Promise<void>;
}

export interface RateDecision {
  readonly allowed: boolean;
  /** Seconds until a request would be allowed (only when refused). */
  readonly retryAfterSeconds: number;
  readonly limit: number;
  readonly remaining: number;
}

/** Per-hook rate limit (RateLimitSettings.IncomingWebhookPerSec / IncomingWebhookMaxBurst). */
export interface HookRateLimiter {
  consume(hookId: string, perSec: number, maxBurst: number): Promise<RateDecision>;
  close(): Promise<void>;
}

export type { Clock, IdGenerator };

export interface LiveConfig {
  current(): Readonly<SystemConfig>;
}

/** Everything a use case may touch. */
export interface Deps extends Repositories {
  readonly channels: ChannelDirectory;
  readonly users: UserDirectory;
  readonly postCommands: PostCommands;
  readonly hookFiles: HookFiles;
  readonly rateLimiter: HookRateLimiter;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly liveConfig: LiveConfig;
  /** Hook transforms (JSONata templates and expressions). */
  readonly transforms: TransformEngine;
}

/** The gateway-authenticated caller of a CRUD route. */
export interface Actor {
  readonly userId: string;
  readonly roles: string;
}
