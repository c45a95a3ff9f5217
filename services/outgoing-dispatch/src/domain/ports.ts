import type { CreatePostCommandPayload, InternalBot, InternalChannel, InternalFileOwner, InternalTeam, InternalPostView, InternalUser, WirePost } from '@switchyard/contracts';
import type { Logger } from '@switchyard/logger';
import type { ConfigView } from '@switchyard/system-config';
import type { Command, CommandWebhook } from './commands/command';
import type { AttemptSlots } from './delivery/attempt-slots';
import type { OpenDialogMatch, OpenDialogRecord } from './dialogs/open-dialog-record';
import type { Delivery, DeliveryChanges, OutgoingHook } from './entities';
import type { Clock } from '@switchyard/ids';

export interface Page {
  readonly page: number;
  readonly perPage: number;
}

export interface HookQuery extends Page {
  readonly teamId?: string;
  readonly channelId?: string;
  readonly creatorId?: string;
}

/** Outgoing hooks (deleted ones are kept with `deleteAt > 0`; queries skip them unless said otherwise). */
export interface OutgoingHookRepository {
  insert(hook: OutgoingHook): Promise<void>;
  /** Replaces the stored hook with the same id; false when there is none. */
  replace(hook: OutgoingHook): Promise<boolean>;
  /** Deleted hooks included. */
  findById(id: string): Promise<OutgoingHook | undefined>;
  /** Hooks not deleted, oldest first. */
  list(query: HookQuery): Promise<OutgoingHook[]>;
  /** Every hook of the team that is not deleted (firing). */
  findByTeam(teamId: string): Promise<OutgoingHook[]>;
  /** Every bot hook (`botUserId` set) that is not deleted, of every team (bot hooks also hear DMs, which have no team). */
  findBotHooks(): Promise<OutgoingHook[]>;
  /** findByTeam narrowed to the hooks that hear the event type (a cached index where the adapter keeps one). */
  findByTeamAndType?(teamId: string, type: string): Promise<readonly OutgoingHook[]>;
  /** findBotHooks narrowed to the hooks that hear the event type (a cached index where the adapter keeps one). */
  findBotHooksByType?(type: string): Promise<readonly OutgoingHook[]>;
}

export interface ClaimRequest {
  readonly now: number;
  readonly owner: string;
  readonly leaseUntil: number;
}

/** The claim condition of the port, for adapters that test it in code. */
export function isClaimable(delivery: Delivery, request: Pick<ClaimRequest, 'now'>): boolean {
  const active = delivery.status === 'pending' || delivery.status === 'failed';
  return active && delivery.nextAttemptAt <= request.now && delivery.claimUntil <= request.now;
}

/**
 * Delivery records. A claim is atomic: only a record that is pending or failed, due (`nextAttemptAt <= now`)
 * and not claimed by anyone else (`claimUntil <= now`) is claimed, so two instances never attempt the same
 * record at the same time. `finish` only applies for the claim's owner (a late instance whose lease ran
 * out cannot overwrite the newer result).
 */
export interface DeliveryRepository {
  /** Inserts unless a delivery with that id exists; true when inserted. */
  insertIfAbsent(delivery: Delivery): Promise<boolean>;
  /**
   * insertIfAbsent for each, in one store round trip where the store allows; the ids of those inserted (a
   * delivery already stored, e.g. of a redelivered event, is left as it is and not among them).
   */
  insertAllIfAbsent(deliveries: readonly Delivery[]): Promise<ReadonlySet<string>>;
  findById(id: string): Promise<Delivery | undefined>;
  claim(id: string, request: ClaimRequest): Promise<Delivery | undefined>;
  /** Claims up to `limit` due deliveries, oldest due first. */
  claimDue(request: ClaimRequest, limit: number): Promise<Delivery[]>;
  /** Applies the changes and releases the claim; false when `owner` no longer holds it. */
  finish(id: string, owner: string, changes: DeliveryChanges): Promise<boolean>;
  /** Changes a delivery regardless of claims (redeliver); the updated record or undefined. */
  update(id: string, changes: DeliveryChanges): Promise<Delivery | undefined>;
  /** Newest first. */
  listByHook(hookId: string, page: Page): Promise<Delivery[]>;
  /**
   * The oldest ordered delivery (isOrderedDelivery) of the same (hook, channel, URL) created before `createAt`
   * that is still pending or failed (will be attempted again), or undefined: what an ordered delivery waits for.
   */
  earliestWaitingBefore(chain: Pick<Delivery, 'hookId' | 'channelId' | 'url'>, createAt: number): Promise<Delivery | undefined>;
  /** The earliest `nextAttemptAt` of a pending or failed delivery, for the scheduler's next wake-up. */
  nextDueAt(): Promise<number | undefined>;
  /** How many deliveries are pending or failed (waiting for an attempt): the retries-pending metric. */
  countWaiting(): Promise<number>;
}

/** Custom slash commands (deleted ones are kept with `deleteAt > 0`; queries skip them). */
export interface CommandRepository {
  insert(command: Command): Promise<void>;
  /** Replaces the stored command with the same id; false when there is none. */
  replace(command: Command): Promise<boolean>;
  /** Deleted commands included. */
  findById(id: string): Promise<Command | undefined>;
  /** The team's commands that are not deleted, oldest first (optionally only one creator's). */
  listByTeam(teamId: string, creatorId?: string): Promise<Command[]>;
}

/** The `response_url`s of executions, keyed by the SHA-256 of their id. */
export interface CommandWebhookRepository {
  insert(hook: CommandWebhook): Promise<void>;
  findByHash(idHash: string): Promise<CommandWebhook | undefined>;
  /**
   * Counts one use, atomically: only while `useCount < maxUses` and the hook was created at or after
   * `createdSince`. The hook after the use, or undefined when it is unknown, expired or used up.
   */
  tryUse(idHash: string, maxUses: number, createdSince: number): Promise<CommandWebhook | undefined>;
  /** Removes hooks created before `before` (expired); how many. */
  deleteCreatedBefore(before: number): Promise<number>;
}

/** Dialogs opened for users: what `dialogs/submit` may call (expired ones are never returned). */
export interface OpenDialogRepository {
  /** Stores the dialog; drops expired ones and keeps only the `keepPerUser` newest of that user. */
  insert(dialog: OpenDialogRecord, keepPerUser: number): Promise<void>;
  /** The newest dialog of the user with exactly that url (any url when undefined), callback id and state, open at `now`. */
  findOpen(match: OpenDialogMatch, now: number): Promise<OpenDialogRecord | undefined>;
  /** Forgets the dialog (it was closed); false when it was not there. */
  remove(id: string): Promise<boolean>;
}

export interface Repositories {
  readonly hooks: OutgoingHookRepository;
  readonly deliveries: DeliveryRepository;
  readonly commands: CommandRepository;
  readonly commandWebhooks: CommandWebhookRepository;
  readonly dialogs: OpenDialogRepository;
}

export type { Clock };

/** What other services know (users-bots: users and team roles; posts: channels and posts). */
export interface Platform {
  /** The team (deleted ones included: check delete_at), or undefined when unknown. */
  team(teamId: string): Promise<InternalTeam | undefined>;
  /** The member's team roles (`""` when not a member or left). */
  teamRoles(teamId: string, userId: string): Promise<string>;
  /** The channel, or undefined when unknown. */
  channel(channelId: string): Promise<InternalChannel | undefined>;
  /** The member's channel roles, or undefined when not a member. */
  channelRoles(channelId: string, userId: string): Promise<string | undefined>;
  users(ids: readonly string[]): Promise<InternalUser[]>;
  /** The direct channel of the two users, created when needed (operational alerts). */
  directChannel(userA: string, userB: string): Promise<InternalChannel>;
  /** The bot (disabled ones included), or undefined when the user is no bot. */
  bot(botUserId: string): Promise<InternalBot | undefined>;
  /** Users by (lower-cased) username; unknown names are left out. */
  usersByUsernames(usernames: readonly string[]): Promise<InternalUser[]>;
  /** The team's channel with that name (archived included), or undefined. */
  channelByName(teamId: string, name: string): Promise<InternalChannel | undefined>;
  /** The stored post (integrations included) with its channel, or undefined. */
  post(postId: string): Promise<InternalPostView | undefined>;
  updatePost(postId: string, update: { message?: string; props?: Record<string, unknown> }): Promise<WirePost>;
  /** Who uploaded each known file (deleted ones included); unknown ids are left out. */
  fileOwners(fileIds: readonly string[]): Promise<InternalFileOwner[]>;
}

/** posts: replies of outgoing hooks, stored when `createPosts` resolves (idempotent by post id). */
export interface PostCommands {
  createPosts(commands: readonly CreatePostCommandPayload[]): Promise<void>;
}

/** realtime.events: what reaches one user's WebSocket connections and nobody else's. */
export interface ClientEvents {
  /** An `ephemeral_message` for `userId` (post type `system_ephemeral`, client-visible, never stored). */
  ephemeralPost(userId: string, post: WirePost): Promise<void>;
  /** An `open_dialog` for `userId`: the reference's `{trigger_id, url, dialog}`. */
  openDialog(userId: string, dialog: { readonly trigger_id: string; readonly url: string; readonly dialog: Readonly<Record<string, unknown>> }): Promise<void>;
}

/**
 * Tells every replica that a hook was created or changed (their hooks-by-team caches drop the team). Never
 * throws: a lost announcement leaves other replicas on the old hooks until their cache entry expires.
 */
export interface HookChanges {
  hookChanged(hook: { readonly id: string; readonly teamId: string }): Promise<void>;
}


export interface OutboundRequest {
  /** POST (default) sends `body`; GET sends none (slash commands with method `G` put their fields in the URL). */
  readonly method?: 'POST' | 'GET';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
}

export type OutboundFailure = 'blocked' | 'timeout' | 'connection' | 'too_large' | 'breaker_open';

export type OutboundResult =
  | {
      readonly kind: 'response';
      readonly status: number;
      /** The reason phrase of the answer's status line as received (Go's `resp.Status` shows it); may be empty. */
      readonly statusText?: string;
      /** The answer's Content-Type header (`""` when absent). */
      readonly contentType?: string;
      /** Seconds or an HTTP date, as the receiver sent it. */
      readonly retryAfter?: string;
      readonly body: string;
      readonly latencyMs: number;
    }
  | {
      readonly kind: 'failure';
      readonly reason: OutboundFailure;
      readonly message: string;
      readonly latencyMs: number;
      /** breaker_open: when the breaker lets a trial request through again (ms from now). */
      readonly retryInMs?: number;
    };

/** The one outbound HTTP client for integration calls (SSRF guard, timeouts, size cap, breakers). */
export interface IntegrationClient {
  post(request: OutboundRequest): Promise<OutboundResult>;
}

/** Signs `trigger_id`s for interactive dialogs and checks them. */
export interface TriggerIds {
  /** The full signed id for a new client trigger id. */
  issue(clientTriggerId: string, userId: string, now: number): string;
  /** Decodes and verifies; throws the reference's `interactive_message.decode_trigger_id.*` errors. */
  verify(triggerId: string, now: number, maxAgeMs: number): { clientTriggerId: string; userId: string };
}

/** The per-hook outgoing rate limit (`RateLimitSettings.OutgoingWebhook*`). */
export interface DeliveryRateLimiter {
  /** Takes one attempt of the hook's budget: 0 when it may go now, else how long (ms) it should wait. */
  delayMs(hookId: string, perSec: number, maxBurst: number): Promise<number>;
}

/** Everything the use cases need. */
export interface Deps extends Repositories {
  readonly clock: Clock;
  readonly liveConfig: ConfigView;
  readonly platform: Platform;
  readonly postCommands: PostCommands;
  readonly clientEvents: ClientEvents;
  /** The attempts this instance runs at once (firing reserves slots before it claims). */
  readonly attempts: AttemptSlots;
  readonly client: IntegrationClient;
  readonly triggerIds: TriggerIds;
  readonly logger: Logger;
  /** This instance's name in delivery claims. */
  readonly instanceId: string;
  /** Called when a delivery will be due at that time (the scheduler wakes up then). */
  readonly wakeAt: (time: number) => void;
  /** Told about every attempt and dead delivery (metrics); optional. */
  readonly observer?: DeliveryObserver;
  /** Per-hook outgoing rate limit; none when absent. */
  readonly rateLimiter?: DeliveryRateLimiter;
}

export type DeadReason = 'retries_exhausted' | 'blocked' | 'gone' | 'hook_unavailable';

/** What happened to deliveries, for the operators (the Prometheus adapter counts it). */
export interface DeliveryObserver {
  /** One call made: its outcome for the delivery, the HTTP status (undefined: no answer) and latency. */
  attempted(outcome: 'delivered' | 'retry' | 'dead', status: number | undefined, latencyMs: number): void;
  dead(reason: DeadReason): void;
  hookDisabled(): void;
  /** An attempt was put off by the per-hook rate limit (optional for older observers). */
  rateLimited?(): void;
}
