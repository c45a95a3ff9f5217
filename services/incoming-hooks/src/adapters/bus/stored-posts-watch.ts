import { AppError } from '@switchyard/errors';
import { eventTypeOf, type BusMessage, type MessageHandler } from '@switchyard/event-bus';

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

interface RefusalWire {
  readonly id?: unknown;
  readonly message?: unknown;
  readonly detailed_error?: unknown;
  readonly status_code?: unknown;
}

/** An answer that may never come: settles when posts answered for every id, or not at all until cancelled. */
export interface PendingStore {
  /** Resolves once every post is stored; rejects with posts' refusal of one of them, or the timeout error. */
  readonly stored: Promise<void>;
  /** Stops waiting (the publish failed); `stored` then never settles. */
  cancel(): void;
}

/**
 * Waits for posts' answers to this instance's create commands, read from posts.events by a consumer
 * group of this instance alone: `post.created` (posts publishes it from its outbox once the post is in
 * its store, so the post is readable through the API) or `post.refused` (posts' error). The handler
 * skips every other message without looking further than its type (by the event-type header: without
 * decoding it) and post id.
 */
export class StoredPostsWatch {
  private readonly waiters = new Map<string, Waiter>();
  /**
   * Called when posts begin to be awaited while none were (the consumer then stops its idle linger). Not
   * while others wait: the consumer's linger is then already the short one, and ending it for every hook
   * made the group fetch again at each new hook instead of once per linger.
   */
  public onWaiting: () => void = () => undefined;

  public constructor(
    private readonly timeoutMs: number,
    private readonly timeoutError: () => Error,
  ) {}

  /** Registers before publishing: posts may answer before the publish resolves. */
  public expect(postIds: readonly string[]): PendingStore {
    let timer: NodeJS.Timeout | undefined;
    const ids = [...postIds];
    const nobodyWaited = this.waiters.size === 0;
    const cancel = (): void => {
      if (timer) clearTimeout(timer);
      for (const id of ids) this.waiters.delete(id);
    };
    const each = ids.map((id) => new Promise<void>((resolve, reject) => this.waiters.set(id, { resolve, reject })));
    if (nobodyWaited) this.onWaiting();
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.timeoutError()), this.timeoutMs);
    });
    const stored = Promise.race([Promise.all(each).then(() => undefined), timeout]).finally(cancel);
    // Posts may refuse before the publish resolved, while nobody awaits `stored` yet: not an unhandled rejection.
    stored.catch(() => undefined);
    return { stored, cancel };
  }

  /** How many posts are awaited (tests, metrics). */
  public get waiting(): number {
    return this.waiters.size;
  }

  public readonly handler: MessageHandler = (message: BusMessage): Promise<void> => {
    if (this.waiters.size === 0) return Promise.resolve();
    // The type from the event-type header where the bus wrote one: other types are never decoded.
    const type = eventTypeOf(message);
    if (type !== 'post.created' && type !== 'post.refused') return Promise.resolve();
    const event = message.value as { payload?: { post?: { id?: unknown }; post_id?: unknown; error?: RefusalWire } } | null;
    if (type === 'post.created') {
      const id = event?.payload?.post?.id;
      if (typeof id === 'string') this.settle(id)?.resolve();
    } else {
      const id = event?.payload?.post_id;
      if (typeof id === 'string') this.settle(id)?.reject(refusalError(event?.payload?.error));
    }
    return Promise.resolve();
  };

  private settle(id: string): Waiter | undefined {
    const waiter = this.waiters.get(id);
    if (waiter) this.waiters.delete(id);
    return waiter;
  }
}

function refusalError(wire: RefusalWire | undefined): AppError {
  const status = typeof wire?.status_code === 'number' ? wire.status_code : 500;
  return new AppError(status >= 500 ? 'internal' : 'validation', {
    id: typeof wire?.id === 'string' ? wire.id : 'api.post.create_webhook_post.creating.app_error',
    message: typeof wire?.message === 'string' ? wire.message : 'Error creating post',
    detailedError: typeof wire?.detailed_error === 'string' ? wire.detailed_error : '',
    statusCode: status,
  });
}
