import type { InternalTeam, InternalUser, UserMentionSettings } from '@switchyard/contracts';
import type { ConfigView } from '@switchyard/system-config';
import type { FileInfoRepository } from './files/file-ports';
import type { Channel, ChannelChanges, ChannelMember, ChannelType, PendingEvent, PostChanges, Reaction, StoredPost } from './entities';
import type { Clock } from '@switchyard/ids';
import type { PostSearchIndex } from './search/post-search.port';
import type { ThreadMembershipRepository } from './threads/thread-ports';
import type { SearchScope } from './search/search-scope.port';
import type { UserNames } from './search/user-names.port';
import type { EmojiRepository } from './emoji/emoji-ports';

/**
 * Repository ports. Shaped for a document store: single-document writes, no transactions, plain
 * objects in and out (adapters return copies), unique keys enforced by the adapter, which throws
 * `DuplicateKeyError` (domain/errors.ts). Every adapter runs the contract suites in adapters/contracts.
 */
export interface Page {
  readonly page: number;
  readonly perPage: number;
}

/** A channel's identity, kind and archive state: what deciding a search's scope reads. */
export type ChannelScope = Pick<Channel, 'id' | 'team_id' | 'name' | 'type' | 'delete_at'>;

/** Which channels `listAcrossTeams` reads. */
export interface AcrossTeamsFilter {
  readonly types: readonly ChannelType[];
  /** `live`: delete_at = 0; `archived`: delete_at ≠ 0; `all`: both. */
  readonly archived: 'live' | 'archived' | 'all';
  /** Only these teams (undefined: every team). */
  readonly teamIds?: readonly string[];
}

export interface ChannelRepository {
  /** Unique: id → DuplicateKeyError('id'); (team_id, name) → DuplicateKeyError('name'). */
  insert(channel: Channel): Promise<void>;
  findById(id: string): Promise<Channel | undefined>;
  findByIds(ids: readonly string[]): Promise<Channel[]>;
  /** What search scoping needs of these channels (indexed columns only, no document read); any order, unknown ids skipped. */
  findScopes(ids: readonly string[]): Promise<ChannelScope[]>;
  /** Archived channels included. */
  findByName(teamId: string, name: string): Promise<Channel | undefined>;
  update(id: string, changes: ChannelChanges): Promise<Channel | undefined>;
  /** Channels of a team of the given types, by display name then id; archived ones only when asked. */
  listByTeam(teamId: string, types: readonly ChannelType[], includeArchived: boolean, page: Page): Promise<Channel[]>;
  /** Channels of any team (team_id not ""), by display name then id, at most `limit` (the admin channel search). */
  listAcrossTeams(filter: AcrossTeamsFilter, limit: number): Promise<Channel[]>;
  /** Counts a new post: last_post_at = max(last_post_at, at), total_msg_count + 1 (root posts: the *_root pair too). */
  recordPost(id: string, at: number, root: boolean): Promise<void>;
  /** Counts several new posts in one write: as many recordPost calls (counts.roots of them root posts). */
  recordPosts(id: string, counts: PostCounts): Promise<void>;
}

/** New posts of one channel, counted together. */
export interface PostCounts {
  readonly posts: number;
  /** How many of them are root posts (0 ≤ roots ≤ posts). */
  readonly roots: number;
  readonly lastPostAt: number;
  /** Latest create_at of the root posts (ignored when roots is 0). */
  readonly lastRootPostAt: number;
}

/** The counts of one post (what recordPost adds). */
export function onePost(at: number, root: boolean): PostCounts {
  return { posts: 1, roots: root ? 1 : 0, lastPostAt: at, lastRootPostAt: root ? at : 0 };
}

/**
 * Channels for the create-post commands: may answer from a short-lived cache that every channel change
 * evicts (identity, type and archive state are what the commands need).
 */
export interface CachedChannels {
  cached(id: string): Promise<Channel | undefined>;
}

/**
 * Memberships for permission checks: may answer from a short-lived cache that every membership change
 * evicts (here at once, from other replicas through channels.events).
 */
export interface CachedChannelMembers {
  cachedMember(channelId: string, userId: string): Promise<ChannelMember | undefined>;
}

/** What viewing a channel changes on a membership. */
export type MemberViewChanges = Partial<Pick<ChannelMember, 'last_viewed_at' | 'msg_count' | 'msg_count_root' | 'mention_count' | 'mention_count_root' | 'urgent_mention_count' | 'last_update_at'>>;

/** Whose memberships one post's mentions count on (memberships only: ids of non-members change nothing). */
export interface MentionTargets {
  /** The members a post mentions (mentioned-members.ts decides who); other ids are ignored. */
  readonly userIds: readonly string[];
}

export interface ChannelMemberRepository {
  /** Unique: (channel_id, user_id) → DuplicateKeyError('member'). */
  insert(member: ChannelMember): Promise<void>;
  find(channelId: string, userId: string): Promise<ChannelMember | undefined>;
  delete(channelId: string, userId: string): Promise<boolean>;
  /** Sets the view counters of a membership (channel view); undefined when it does not exist. */
  update(channelId: string, userId: string, changes: MemberViewChanges): Promise<ChannelMember | undefined>;
  /**
   * One more mention on each target membership, in one write (the reference's IncrementMentionCount):
   * mention_count + 1, mention_count_root + 1 for a root post, urgent_mention_count + 1 for an urgent one, last_update_at = at.
   */
  incrementMentions(channelId: string, targets: MentionTargets, root: boolean, at: number, urgent?: boolean): Promise<void>;
  /**
   * Merges the given notify props into the membership's (other keys kept) and sets last_update_at, in one write
   * (the reference's UpdateMemberNotifyProps); undefined when the membership does not exist.
   */
  updateNotifyProps(channelId: string, userId: string, props: Readonly<Record<string, string>>, at: number): Promise<ChannelMember | undefined>;
  /** Oldest first (create_at, then user_id). */
  listByChannel(channelId: string, page: Page): Promise<ChannelMember[]>;
  listByUser(userId: string): Promise<ChannelMember[]>;
  /** The ids of the user's channels (no membership document read); any order. */
  channelIdsOfUser(userId: string): Promise<string[]>;
  /**
   * The ids of at most `limit` members of the channel in user id order, after `after` when given (read in pages); no
   * membership document read: the unique index (channel_id, user_id) alone.
   */
  userIdsOfChannel(channelId: string, limit: number, after?: string): Promise<string[]>;
}

export interface PostQuery {
  readonly channelId: string;
  /** Deleted posts too (the `since` form always includes them). */
  readonly includeDeleted: boolean;
  /** update_at > updatedSince */
  readonly updatedSince?: number;
  /** create_at < createdBefore */
  readonly createdBefore?: number;
  /** create_at > createdAfter */
  readonly createdAfter?: number;
  /** Only pinned posts (`GET /channels/{id}/pinned`, channel stats). */
  readonly pinnedOnly?: boolean;
  /**
   * Only root posts (root_id = ''): the collapsed-threads channel view. Adapters read roots without walking the
   * replies between them (SQLite: a partial index of roots, migration 13; MongoDB: an index on channel_id, root_id).
   */
  readonly rootsOnly?: boolean;
  /** `desc`: newest first (default); `asc`: oldest first. Ties by id in the same direction. */
  readonly order?: 'desc' | 'asc';
  readonly skip: number;
  readonly limit: number;
}

/** An outbox event the bus acknowledged. */
export interface ClearedEvent {
  readonly postId: string;
  readonly eventId: string;
}

/** What `insertMany` did not write. */
export interface InsertManyResult {
  /** Positions (ascending) in the call's list of the posts not written because their id existed. */
  readonly duplicates: readonly number[];
}

export interface PostRepository {
  /** Unique: id → DuplicateKeyError('id'). */
  insert(post: StoredPost): Promise<void>;
  /**
   * Inserts several posts in one store call (one transaction, one bulk command): each as `insert` would,
   * except that a post whose id exists (stored before, or earlier in the same list) is skipped and reported
   * in `duplicates`, never thrown. Not atomic on other errors: some posts may then be stored (callers are
   * idempotent by id).
   */
  insertMany(posts: readonly StoredPost[]): Promise<InsertManyResult>;
  findById(id: string): Promise<StoredPost | undefined>;
  findByIds(ids: readonly string[]): Promise<StoredPost[]>;
  /** The caller's post with that pending_post_id created at or after `since` (the 30 s dedupe window). */
  findByPendingPostId(userId: string, pendingPostId: string, since: number): Promise<StoredPost | undefined>;
  /** Sets the fields and, in the same single-document write, appends an outbox event. */
  update(id: string, changes: PostChanges, event?: PendingEvent): Promise<StoredPost | undefined>;
  /** Appends an outbox event (reactions). */
  addEvent(id: string, event: PendingEvent): Promise<StoredPost | undefined>;
  /** Removes an acknowledged event from the outbox. */
  clearEvent(id: string, eventId: string): Promise<void>;
  /** Removes acknowledged events of several posts from their outboxes (one store write where the store allows). */
  clearEvents(events: readonly ClearedEvent[]): Promise<void>;
  /** Posts whose outbox is not empty, oldest first. */
  withPendingEvents(limit: number): Promise<StoredPost[]>;
  list(query: PostQuery): Promise<StoredPost[]>;
  /**
   * A reply by `authorId` was stored: reply_count + 1, last_reply_at and update_at = max(themselves, at) (the
   * reference bumps the root's update_at), and `authorId` joins the participants kept on
   * the root when not among them yet (roots stored before they were kept keep none: see `participants`).
   */
  recordReply(rootId: string, at: number, authorId: string): Promise<void>;
  /** A reply was deleted: reply_count - 1, never below 0; kept participants are listed again from the live replies. */
  forgetReply(rootId: string): Promise<void>;
  /**
   * The thread's participants: the authors of its live replies, each once, in the order they first replied,
   * as kept on the root by `recordReply`/`forgetReply` (one read whatever the thread's length); a root stored
   * before they were kept: `replyAuthors`. Never part of the post itself.
   */
  participants(channelId: string, rootId: string): Promise<string[]>;
  /** The non-deleted replies of a root in its channel (root_id = rootId), oldest first by (create_at, id). */
  listReplies(channelId: string, rootId: string): Promise<StoredPost[]>;
  /** The authors of those replies, each once, in the order of their first reply (no document read: the thread's participants). */
  replyAuthors(channelId: string, rootId: string): Promise<string[]>;
  /** How many of those replies were created after `after` (an indexed range: the cost follows the count, not the thread). */
  countRepliesAfter(channelId: string, rootId: string, after: number): Promise<number>;
  deletePermanently(id: string): Promise<boolean>;
}

export interface ReactionRepository {
  /** Insert or replace the (user_id, post_id, emoji_name) reaction; returns it as stored. */
  save(reaction: Reaction): Promise<Reaction>;
  delete(userId: string, postId: string, emojiName: string): Promise<boolean>;
  /** Oldest first. */
  listByPost(postId: string): Promise<Reaction[]>;
  countByPost(postId: string): Promise<number>;
  /** Removes every reaction with that emoji name (a custom emoji was deleted); returns the ids of the posts that had one. */
  deleteByEmojiName(emojiName: string): Promise<string[]>;
}

export interface PostsRepositories {
  readonly channels: ChannelRepository;
  readonly channelMembers: ChannelMemberRepository;
  readonly posts: PostRepository;
  readonly reactions: ReactionRepository;
  /** File infos (files on posts, ADR 0022). */
  readonly files: FileInfoRepository;
  /** Post search (kept true by the post writes of the same store). */
  readonly search: PostSearchIndex;
  /** Thread memberships (collapsed reply threads). */
  readonly threads: ThreadMembershipRepository;
  /** Custom emoji metadata (the images are in the file store). */
  readonly emoji: EmojiRepository;
  /** Which channels a search reads, when the store decides it in one query (else read through channelMembers + channels). */
  readonly searchScope?: SearchScope;
}

export type { Clock };

/** users-bots as posts needs it (its internal API). */
export interface UsersDirectory {
  /** The user's roles in the team (`team_user ...`), undefined when not an active member. */
  teamRoles(teamId: string, userId: string): Promise<string | undefined>;
  usersByIds(ids: readonly string[]): Promise<InternalUser[]>;
  /** The team's name (deleted teams included), undefined when it does not exist. No visibility check: callers check channel access. */
  teamName(teamId: string): Promise<string | undefined>;
  /** The team (deleted teams included), undefined when it does not exist. No visibility check. */
  team(teamId: string): Promise<InternalTeam | undefined>;
  /** The id of the team with that (lower-case) name, undefined when it does not exist. No visibility check. */
  teamIdByName(name: string): Promise<string | undefined>;
  /**
   * Which of `userIds` are active members of `teamId` (of any team when undefined): post search's `from:`
   * matches only such authors, as the reference. May answer from a short cache (never used for access decisions).
   */
  teamMembersAmong(teamId: string | undefined, userIds: readonly string[]): Promise<ReadonlySet<string>>;
}

/** Statuses as posts needs them (realtime's internal API). */
export interface OnlineUsers {
  /** Those of the ids whose status is exactly `online`; [] when it cannot be known. */
  online(userIds: readonly string[]): Promise<string[]>;
}

/** Users' mention settings as posts needs them (users-bots' internal API). */
export interface MentionSettingsSource {
  /** The settings of those of the users whose settings are not the defaults (the others are absent); rejects when unknown. */
  of(userIds: readonly string[]): Promise<ReadonlyMap<string, UserMentionSettings>>;
}

/** The `display_settings`/`collapsed_reply_threads` preference as posts needs it (users-bots' internal API). */
export interface CrtPreferences {
  /** The value (`on`, `off`) of each of these users that set one; an empty map when it cannot be known. */
  valuesOf(userIds: readonly string[]): Promise<ReadonlyMap<string, string>>;
}

/** A post as it was just inserted (its whole outbox) and its channel. */
export interface FreshPost {
  readonly post: StoredPost;
  readonly channel: Channel;
  /** The members its mentions were counted on (its `post.created` carries them); absent when not counted. */
  readonly mentions?: readonly string[];
}

/** Where events go (the event bus): resolves once durably accepted. */
export interface EventSink {
  /** `headers`: message headers (a trace context to continue instead of the active one). */
  publish(topic: string, messages: readonly { key: string; value: unknown; headers?: Readonly<Record<string, string>> }[]): Promise<void>;
}

export interface Deps extends PostsRepositories {
  readonly cachedChannels: CachedChannels;
  readonly cachedMembers: CachedChannelMembers;
  readonly clock: Clock;
  readonly users: UsersDirectory;
  /** Usernames to ids (users-bots): who a post's `@name`s are, for thread followers. */
  readonly userNames: UserNames;
  /** Which users are online (realtime's statuses): who `@here` mentions. Absent: `@here` mentions nobody. */
  readonly onlineUsers?: OnlineUsers;
  /** Users' mention keys, first-name and channel-wide settings (users-bots). Absent: every user has the defaults. */
  readonly mentionSettings?: MentionSettingsSource;
  /** Users' collapsed-threads preference (users-bots). Absent: everyone follows CollapsedThreads' default. */
  readonly crtPreferences?: CrtPreferences;
  readonly events: EventSink;
  readonly liveConfig: ConfigView;
  /**
   * Publishes a post's outbox right after a write, behind earlier writes of its channel; resolves when done,
   * never rejects (the sweep retries what fails). `fresh`: the post as just inserted and its channel, so the relay does not read them back.
   */
  readonly relay: (post: { readonly id: string; readonly channel_id: string }, fresh?: FreshPost) => Promise<void>;
  /**
   * `relay` for several writes at once, in the given order: a channel's posts among them go out in one run
   * (one publish, one outbox clear) instead of the first alone and the rest behind it.
   */
  readonly relayAll: (posts: readonly RelayedPost[]) => Promise<void>;
}

/** A write handed to the relay: the post (id and channel) and, when just inserted, its fresh copy. */
export interface RelayedPost {
  readonly post: { readonly id: string; readonly channel_id: string };
  readonly fresh?: FreshPost;
}
