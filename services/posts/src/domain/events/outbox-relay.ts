import { Topics, type Envelope, type FileAttachedPayload, type PostAuthor, type PostEventPayload, type ReactionEventPayload, type WirePost } from '@switchyard/contracts';
import { toInternalChannel } from '../channels/channel-events';
import type { Channel, PendingEvent, StoredPost } from '../entities';
import type { ClearedEvent, Deps, FreshPost, RelayedPost } from '../ports';
import { incomingHookOf, withoutHookKey } from '../rules/hook-origin';
import { isSystemType } from '../rules/post-rules';
import { withReplyCounts } from '../posts/reply-counts';

/** Most posts one run publishes together (one bus publish, one outbox clear). */
const MAX_POSTS_PER_RUN = 50;

/** The stored post without its outbox and hook key: what events and internal APIs carry (integrations included). */
export function toWirePost(post: StoredPost): WirePost {
  const { pending_events: _pending, incoming_hook_id: _hook, props, ...wire } = post;
  return { ...wire, props: withoutHookKey(props) };
}

async function authorOf(deps: Pick<Deps, 'users'>, userId: string, fallbackIsBot: boolean): Promise<PostAuthor> {
  const [user] = await deps.users.usersByIds([userId]);
  return user ? { id: user.id, username: user.username, is_bot: user.isBot } : { id: userId, username: '', is_bot: fallbackIsBot };
}

/** The envelope of one outbox event; `counted` is the post with the reply_count events carry (a reply: its root's, the new count for post.created). */
async function envelopeFor(deps: Pick<Deps, 'users'>, counted: StoredPost, event: PendingEvent, channel: Channel, mentions?: readonly string[]): Promise<Envelope | undefined> {
  const internal = toInternalChannel(channel);
  const team = channel.team_id === '' ? null : { id: channel.team_id, name: channel.team_name };
  const wire = toWirePost(counted);
  const hookId = incomingHookOf(counted);
  if (event.type === 'reaction.added' || event.type === 'reaction.removed') {
    if (!event.reaction) return undefined;
    const r = event.reaction;
    const payload: ReactionEventPayload = {
      reaction: { user_id: r.user_id, post_id: r.post_id, emoji_name: r.emoji_name, create_at: r.create_at },
      post: wire,
      channel: internal,
      team,
      reactor: await authorOf(deps, r.user_id, false),
      ...(hookId ? { incoming_hook_id: hookId } : {}),
    };
    return { id: event.id, type: event.type, version: 1, time: event.time, payload };
  }
  if (event.type === 'file.attached') {
    // The info as the post shows it; a file no longer on the post (deleted since) is not announced.
    const files = Array.isArray(counted.metadata?.files) ? (counted.metadata.files as FileAttachedPayload['file_info'][]) : [];
    const info = files.find((f) => f.id === event.file_id);
    if (!info || counted.delete_at !== 0) return undefined;
    const payload: FileAttachedPayload = { file_info: info, channel: internal, team, uploader: await authorOf(deps, info.user_id, counted.props.from_bot === 'true'), source: event.source };
    return { id: event.id, type: event.type, version: 1, time: event.time, payload };
  }
  const payload: PostEventPayload = {
    post: wire,
    channel: internal,
    team,
    author: await authorOf(deps, counted.user_id, counted.props.from_bot === 'true'),
    source: event.source,
    from_webhook: counted.props.from_webhook === 'true',
    is_system: isSystemType(counted.type),
    ...(event.type === 'post.created' && mentions ? { mentions } : {}),
  };
  return { id: event.id, type: event.type, version: 1, time: event.time, payload };
}

/**
 * Who a stored post mentions, read as a new post's are (mentioned-members.ts): for a `post.created` published without the
 * mentions its write counted (the sweep after a crash, a run held back by the bus, a second run of the post).
 */
export type MentionReader = (post: StoredPost, channel: Channel) => Promise<readonly string[]>;

/** What the relay reads and publishes with; `mentionsOf` absent: such a `post.created` goes out without `mentions`. */
export type OutboxRelayDeps = Pick<Deps, 'posts' | 'channels' | 'users' | 'events'> & { readonly mentionsOf?: MentionReader };

/** A scheduled run: the post, its fresh copy when trusted, and who waits for it. */
interface QueuedRun {
  readonly postId: string;
  readonly fresh: FreshPost | undefined;
  readonly done: () => void;
}

/**
 * The outbox relay: publishes posts' pending events in order to posts.events (keyed by channel id) and
 * clears them once the bus acknowledged them.
 *
 * Each channel has one queue and at most one run at a time: a run takes every post queued meanwhile (up to
 * MAX_POSTS_PER_RUN), publishes all their events in one bus publish (in queue order, so in the order the
 * writes were relayed: for posts, the order they were stored, create_at order for one writer) and clears
 * them from the outbox in one write. Under load a channel's posts thus share one broker round trip and one
 * store write instead of paying one each; a post alone still goes out at once (no timer).
 * When a publish fails, the run's posts and every later post of its channel are held back in order: the
 * next run for the channel (a new write, or the sweep) publishes them first, so a consumer of the channel
 * never sees B before an A that was stored earlier. The sweep takes pending posts in create_at order.
 * Across several posts replicas only each replica's own writes are ordered this way.
 * A `post.created` always carries whom the post mentions (realtime's `posted` reads them): the ids its write counted when
 * the run has them, else read again here (`mentionsOf`), the same way; only when that fails too does it go out without.
 */
export class OutboxRelay {
  private readonly queues = new Map<string, QueuedRun[]>();
  /** channel id → its running drain (at most one per channel). */
  private readonly draining = new Map<string, Promise<void>>();
  /** post id → runs of that post queued and not finished (a fresh copy is only trusted for the first). */
  private readonly queuedRuns = new Map<string, number>();
  /** channel id → post ids whose publish failed or waits behind one that failed, oldest first. */
  private readonly held = new Map<string, string[]>();

  public constructor(private readonly deps: OutboxRelayDeps, private readonly onError: (error: unknown, postId: string) => void) {}

  /**
   * Queues the post behind earlier runs of its channel; resolves when the run that took it finished (never
   * rejects). `fresh` (the post as just inserted and its channel) saves reading them back, when no other
   * run of the post is queued.
   */
  public schedule(post: { readonly id: string; readonly channel_id: string }, fresh?: FreshPost): Promise<void> {
    const done = this.enqueue(post, fresh);
    this.kick(post.channel_id);
    return done;
  }

  /**
   * `schedule` for several writes, in order: all are queued before any channel's run starts, so a channel's
   * posts among them go out in one run (up to MAX_POSTS_PER_RUN) instead of the first alone.
   */
  public scheduleAll(posts: readonly RelayedPost[]): Promise<void> {
    const done = posts.map(({ post, fresh }) => this.enqueue(post, fresh));
    for (const channelId of new Set(posts.map(({ post }) => post.channel_id))) this.kick(channelId);
    return Promise.all(done).then(() => undefined);
  }

  /** Every post with pending events (at start and periodically): returns how many posts were handled. */
  public async sweep(batch = 200): Promise<number> {
    const posts = await this.deps.posts.withPendingEvents(batch);
    await Promise.all(posts.map((post) => this.schedule(post)));
    return posts.length;
  }

  /** Resolves when every scheduled run finished. */
  public async idle(): Promise<void> {
    while (this.draining.size > 0) await Promise.all([...this.draining.values()]);
  }

  private enqueue(post: { readonly id: string; readonly channel_id: string }, fresh: FreshPost | undefined): Promise<void> {
    const runs = this.queuedRuns.get(post.id) ?? 0;
    this.queuedRuns.set(post.id, runs + 1);
    return new Promise<void>((resolve) => {
      const queue = this.queues.get(post.channel_id);
      const run: QueuedRun = { postId: post.id, fresh: runs === 0 ? fresh : undefined, done: resolve };
      if (queue) queue.push(run);
      else this.queues.set(post.channel_id, [run]);
    });
  }

  private kick(channelId: string): void {
    if (this.draining.has(channelId)) return;
    const drain = this.drain(channelId).finally(() => {
      this.draining.delete(channelId);
      if ((this.queues.get(channelId)?.length ?? 0) > 0) this.kick(channelId);
    });
    this.draining.set(channelId, drain);
  }

  private async drain(channelId: string): Promise<void> {
    for (;;) {
      const queue = this.queues.get(channelId);
      if (!queue || queue.length === 0) {
        this.queues.delete(channelId);
        return;
      }
      const runs = queue.splice(0, MAX_POSTS_PER_RUN);
      try {
        await this.run(channelId, runs);
      } finally {
        for (const run of runs) {
          const left = (this.queuedRuns.get(run.postId) ?? 1) - 1;
          if (left > 0) this.queuedRuns.set(run.postId, left);
          else this.queuedRuns.delete(run.postId);
          run.done();
        }
      }
    }
  }

  /** Publishes the channel's held-back posts, then these, together; on failure holds them all, in order. */
  private async run(channelId: string, runs: readonly QueuedRun[]): Promise<void> {
    const waiting = this.held.get(channelId) ?? [];
    // Only ids are held, and only while the bus refuses: what is held is also pending in the store.
    const ids = [...waiting];
    const seen = new Set(ids);
    const times = new Map<string, number>();
    for (const run of runs) {
      times.set(run.postId, (times.get(run.postId) ?? 0) + 1);
      if (!seen.has(run.postId)) {
        seen.add(run.postId);
        ids.push(run.postId);
      }
    }
    // A fresh copy is trusted when nothing is held and the post is taken once (a second run means a later write).
    const fresh = new Map<string, FreshPost>();
    if (waiting.length === 0) for (const run of runs) if (run.fresh && times.get(run.postId) === 1) fresh.set(run.postId, run.fresh);
    try {
      await this.publish(channelId, ids, fresh);
    } catch (error) {
      this.held.set(channelId, ids);
      this.onError(error, ids[0] as string);
      return;
    }
    this.held.delete(channelId);
  }

  private async publish(channelId: string, ids: readonly string[], fresh: ReadonlyMap<string, FreshPost>): Promise<void> {
    const unread = ids.filter((id) => !fresh.has(id));
    const read = new Map((unread.length > 0 ? await this.deps.posts.findByIds(unread) : []).map((post) => [post.id, post]));
    const posts = ids.flatMap((id) => {
      const post = fresh.get(id)?.post ?? read.get(id);
      return post && post.pending_events.length > 0 ? [post] : [];
    });
    if (posts.length === 0) return;
    let channel: Channel | undefined;
    for (const known of fresh.values()) channel = known.channel;
    channel ??= await this.deps.channels.findById(channelId);
    const counted = await withReplyCounts(this.deps, posts);
    const mentions = channel ? await this.mentionsOfCreated(counted, channel, fresh) : new Map<string, readonly string[]>();
    const messages: { key: string; value: Envelope; headers?: Readonly<Record<string, string>> }[] = [];
    const cleared: ClearedEvent[] = [];
    for (const post of counted) {
      for (const event of post.pending_events) {
        const envelope = channel ? await envelopeFor(this.deps, post, event, channel, mentions.get(post.id)) : undefined;
        if (envelope) messages.push(event.trace ? { key: channelId, value: envelope, headers: event.trace } : { key: channelId, value: envelope });
        cleared.push({ postId: post.id, eventId: event.id });
      }
    }
    if (messages.length > 0) await this.deps.events.publish(Topics.postsEvents, messages);
    await this.deps.posts.clearEvents(cleared);
  }

  /**
   * Whom each post with a pending `post.created` mentions: what its write counted (the fresh copy), else read again
   * (mentionsOf, in parallel); a post whose reading fails is left out (its event goes out without `mentions`).
   */
  private async mentionsOfCreated(posts: readonly StoredPost[], channel: Channel, fresh: ReadonlyMap<string, FreshPost>): Promise<Map<string, readonly string[]>> {
    const found = new Map<string, readonly string[]>();
    const reads: Promise<void>[] = [];
    for (const post of posts) {
      if (!post.pending_events.some((e) => e.type === 'post.created')) continue;
      const counted = fresh.get(post.id)?.mentions;
      if (counted) found.set(post.id, counted);
      else if (this.deps.mentionsOf) {
        const read = this.deps.mentionsOf(post, channel).then((ids) => void found.set(post.id, ids), () => undefined);
        reads.push(read);
      }
    }
    await Promise.all(reads);
    return found;
  }
}
