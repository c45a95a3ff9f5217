import type { StoredPost } from '../entities';

/**
 * The prop that carried the incoming hook's key on posts stored before the key moved to the post's
 * internal `incoming_hook_id`. The key is the hook's only secret: it never reaches a client or an
 * event's `post`, and a client can neither set nor see it.
 */
export const LEGACY_HOOK_KEY_PROP = 'incoming_webhook_id';

/** Props without the hook key (a copy when it was there, the same object otherwise). */
export function withoutHookKey<T extends Readonly<Record<string, unknown>>>(props: T): T {
  if (!(LEGACY_HOOK_KEY_PROP in props)) return props;
  const { [LEGACY_HOOK_KEY_PROP]: _key, ...rest } = props;
  return rest as T;
}

/** The incoming hook that made a post: the internal field, else the legacy prop of a webhook post. */
export function incomingHookOf(post: Pick<StoredPost, 'incoming_hook_id' | 'props'>): string | undefined {
  if (post.incoming_hook_id) return post.incoming_hook_id;
  const legacy = post.props[LEGACY_HOOK_KEY_PROP];
  return typeof legacy === 'string' && legacy !== '' && post.props.from_webhook === 'true' ? legacy : undefined;
}
