import { Topics, type Envelope, type PostAuthor, type PostEventPayload, type ReactionEventPayload, type WirePost } from '@switchyard/contracts';
import { toInternalChannel } from '../channels/channel-events';
import type { Channel, PendingEvent, StoredPost } from '../entities';
import type { Deps, FreshPost } from '../ports';
import { incomingHookOf, withoutHookKey } from '../rules/hook-origin';
import { isSystemType } from '../rules/post-rules';
import { withReplyCount } from '../posts/reply-counts';

/** The stored post without its outbox and hook key: what events and internal APIs carry (integrations included). */
export function toWirePost(post: StoredPost): WirePost {
  const { pending_events: _pending, incoming_hook_id: _hook, props, ...wire } = post;
  return { ...wire, props: withoutHookKey(props) };
}

async function authorOf(deps: Pick<Deps, 'users'>, userId: string, fallbackIsBot: boolean): Promise<PostAuthor> {
  const [user] = await deps.users.usersByIds([userId]);
  return user ? { id: user.id, username: user.username, is_bot: user.isBot } : { id: userId, username: '', is_bot: fallbackIsBot };
}

async function envelopeFor(deps: Pick<Deps, 'users' | 'channels' | 'posts'>, post: StoredPost, event: PendingEvent, known?: Channel): Promise<Envelope | undefined> {
  const channel = known ?? (await deps.channels.findById(post.channel_id));
  if (!channel) return undefined;
  const internal = toInternalChannel(channel);
  const team = channel.team_id === '' ? null : { id: channel.team_id, name: channel.team_name };
  // A reply's event carries its root's reply_count (the new count, for post.created).
  const wire = toWirePost(await withReplyCount(deps, post));
  const hookId = incomingHookOf(post);
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
  const payload: PostEventPayload = {
    post: wire,
    channel: internal,
    team,
    author: await authorOf(deps, post.user_id, post.props.from_bot === 'true'),
    source: event.source,
    from_webhook: post.props.from_webhook === 'true',
    is_system: isSystemType(post.type),
  };
  return { id: event.id, type: event.type, version: 1, time: event.time, payload };
}

/**
 * The outbox relay: publishes a post's pending events in order to posts.events (keyed by channel id)
 * and clears each once the bus acknowledged it.
 *
 * Order: within this process, runs are chained per channel, so a channel's events go out in the order the
 * writes were relayed (for posts: the order they were stored, which is create_at order for one writer).
 * When a publish fails, that post and every later post of its channel are held back in order: the next
 * run for the channel (a new write, or the sweep) publishes them first, so a consumer of the channel never
 * sees B before an A that was stored earlier. The sweep takes pending posts in create_at order. Across
 * several posts replicas only each replica's own writes are ordered this way.
 */
export class OutboxRelay {
  private readonly chains = new Map<string, Promise<void>>();
  /** post id → runs of that post queued and not finished (a fresh copy is only trusted for the first). */
  private readonly queuedRuns = new Map<string, number>();
  /** channel id → post ids whose publish failed or waits behind one that failed, oldest first. */
  private readonly held = new Map<string, string[]>();

  public constructor(private readonly deps: Pick<Deps, 'posts' | 'channels' | 'users' | 'events'>, private readonly onError: (error: unknown, postId: string) => void) {}

  /**
   * Queues a run for the post behind earlier runs of its channel; resolves when it finished (never
   * rejects). `fresh` (the post as just inserted and its channel) saves reading them back, when no other
   * run of the post is queued.
   */
  public schedule(post: { readonly id: string; readonly channel_id: string }, fresh?: FreshPost): Promise<void> {
    const key = post.channel_id;
    const runs = this.queuedRuns.get(post.id) ?? 0;
    this.queuedRuns.set(post.id, runs + 1);
    const known = runs === 0 ? fresh : undefined;
    const previous = this.chains.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.run(key, post.id, known));
    this.chains.set(key, next);
    void next.finally(() => {
      const left = (this.queuedRuns.get(post.id) ?? 1) - 1;
      if (left > 0) this.queuedRuns.set(post.id, left);
      else this.queuedRuns.delete(post.id);
      if (this.chains.get(key) === next) this.chains.delete(key);
    });
    return next;
  }

  /** Every post with pending events (at start and periodically): returns how many posts were handled. */
  public async sweep(batch = 200): Promise<number> {
    const posts = await this.deps.posts.withPendingEvents(batch);
    await Promise.all(posts.map((post) => this.schedule(post)));
    return posts.length;
  }

  /** Resolves when every scheduled run finished. */
  public async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
  }

  /** Publishes the channel's held-back posts, then this one, stopping (and holding the rest) at a failure. */
  private async run(channelId: string, postId: string, fresh: FreshPost | undefined): Promise<void> {
    const waiting = this.held.get(channelId) ?? [];
    // Only ids are held, and only while the bus refuses: what is held is also pending in the store.
    const queue = waiting.includes(postId) ? waiting : [...waiting, postId];
    for (let i = 0; i < queue.length; i += 1) {
      const id = queue[i] as string;
      try {
        await this.publish(id, id === postId && waiting.length === 0 ? fresh : undefined);
      } catch (error) {
        this.held.set(channelId, queue.slice(i));
        this.onError(error, id);
        return;
      }
    }
    this.held.delete(channelId);
  }

  private async publish(postId: string, fresh?: FreshPost): Promise<void> {
    const post = fresh?.post ?? (await this.deps.posts.findById(postId));
    if (!post) return;
    for (const event of post.pending_events) {
      const envelope = await envelopeFor(this.deps, post, event, fresh?.channel);
      if (envelope) await this.deps.events.publish(Topics.postsEvents, [{ key: post.channel_id, value: envelope }]);
      await this.deps.posts.clearEvent(post.id, event.id);
    }
  }
}
