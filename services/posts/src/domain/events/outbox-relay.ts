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
 * and clears each once the bus acknowledged it. Runs are chained per post, so two writers of one post
 * never publish its events out of order. A failure leaves the event pending for the next sweep.
 */
export class OutboxRelay {
  private readonly chains = new Map<string, Promise<void>>();

  public constructor(private readonly deps: Pick<Deps, 'posts' | 'channels' | 'users' | 'events'>, private readonly onError: (error: unknown, postId: string) => void) {}

  /**
   * Queues a run for the post; resolves when it finished (never rejects). `fresh` (the post as just
   * inserted and its channel) saves reading them back, when no other run of the post is queued.
   */
  public schedule(postId: string, fresh?: FreshPost): Promise<void> {
    const queued = this.chains.get(postId);
    const previous = queued ?? Promise.resolve();
    const known = queued === undefined ? fresh : undefined;
    const next = previous.then(() => this.publish(postId, known)).catch((error: unknown) => this.onError(error, postId));
    this.chains.set(postId, next);
    void next.finally(() => {
      if (this.chains.get(postId) === next) this.chains.delete(postId);
    });
    return next;
  }

  /** Every post with pending events (at start and periodically): returns how many posts were handled. */
  public async sweep(batch = 200): Promise<number> {
    const posts = await this.deps.posts.withPendingEvents(batch);
    await Promise.all(posts.map((post) => this.schedule(post.id)));
    return posts.length;
  }

  /** Resolves when every scheduled run finished. */
  public async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
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
