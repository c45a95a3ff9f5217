import { envelope, Topics, type CreatePostCommandPayload } from '@switchyard/contracts';
import type { BusMessage, EventBus, Subscription } from '@switchyard/event-bus';

export interface Refusal {
  readonly id: string;
  readonly message: string;
  readonly status_code: number;
}

/**
 * The posts service as incoming-hooks sees it on the bus: consumes posts.commands, keeps the posts, and
 * answers each with `post.created` (or `post.refused` when `refuse` says so) on posts.events. `hold()`
 * makes it wait before storing (posts slow or down) until the returned release is called.
 */
export class FakePostsService {
  public readonly stored = new Map<string, CreatePostCommandPayload['post']>();
  public refuse: ((command: CreatePostCommandPayload) => Refusal | undefined) | undefined;
  private gate: Promise<void> | undefined;
  private subscription: Subscription | undefined;
  private readonly storedWaiters = new Map<string, () => void>();

  public constructor(private readonly bus: EventBus) {}

  public async start(): Promise<void> {
    this.subscription = await this.bus.subscribe({ groupId: 'fake-posts', topics: [Topics.postsCommands], handler: (m) => this.handle(m) });
  }

  public async stop(): Promise<void> {
    await this.subscription?.stop();
  }

  /** Commands wait (unanswered, not stored) until the returned function is called. */
  public hold(): () => void {
    let release = (): void => undefined;
    this.gate = new Promise<void>((resolve) => {
      release = () => {
        this.gate = undefined;
        resolve();
      };
    });
    return release;
  }

  /** Resolves once the post is stored. */
  public whenStored(postId: string): Promise<void> {
    if (this.stored.has(postId)) return Promise.resolve();
    return new Promise((resolve) => this.storedWaiters.set(postId, resolve));
  }

  private async handle(message: BusMessage): Promise<void> {
    if (this.gate) await this.gate;
    const command = (message.value as { payload: CreatePostCommandPayload }).payload;
    const refusal = this.refuse?.(command);
    if (refusal) {
      const payload = { post_id: command.post.id, channel_id: command.post.channel_id, source: command.source, error: { ...refusal, detailed_error: '' } };
      await this.bus.publish(Topics.postsEvents, [{ key: command.post.channel_id, value: envelope('post.refused', payload) }]);
      return;
    }
    this.stored.set(command.post.id, command.post);
    this.storedWaiters.get(command.post.id)?.();
    this.storedWaiters.delete(command.post.id);
    await this.bus.publish(Topics.postsEvents, [{ key: command.post.channel_id, value: envelope('post.created', { post: command.post, source: command.source }) }]);
  }
}
