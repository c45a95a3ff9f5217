/** How a hook reads a vendor's own payload: a built-in template by name, or the creator's JSONata expression. */
export type HookTransform = { readonly template: string } | { readonly jsonata: string };

/** An incoming webhook as stored. Its `id` is also the secret key of `POST /hooks/{id}`. */
export interface IncomingHook {
  readonly id: string;
  readonly createAt: number;
  readonly updateAt: number;
  readonly deleteAt: number;
  /** Owner: posts are made as this user. */
  readonly userId: string;
  readonly channelId: string;
  readonly teamId: string;
  readonly displayName: string;
  readonly description: string;
  readonly username: string;
  readonly iconUrl: string;
  readonly channelLocked: boolean;
  /** Extension: DM the owner when someone reacts to one of the hook's posts. */
  readonly reactionNotifications: boolean;
  /** Extension (Hook transform); absent on hooks stored before it existed (= null, [], [], ''). */
  readonly transform?: HookTransform | null;
  readonly onlyEvents?: readonly string[];
  readonly excludeEvents?: readonly string[];
  /** Verifies the vendor's signature where the template defines one; never returned. */
  readonly transformSecret?: string;
}

export type IncomingHookChanges = Partial<Omit<IncomingHook, 'id' | 'createAt' | 'userId' | 'teamId'>>;

/** The answer given to the first request with an `Idempotency-Key`, replayed to later ones. */
export interface StoredResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One `Idempotency-Key` of one hook. `response` is absent while the first request is in flight. */
export interface IdempotencyRecord {
  readonly hookId: string;
  readonly key: string;
  /** Random token of the request that holds the reservation. */
  readonly owner: string;
  readonly createAt: number;
  readonly response?: StoredResponse;
}
