import type { StoredPost } from '../entities';
import type { Deps } from '../ports';
import { isThread, participantsOf } from '../threads/thread-view';

type Json = Record<string, unknown>;

/** What a root carries in a collapsed-threads post list beyond its stored fields (reply_count and last_reply_at are stored). */
export interface CollapsedThreadFields {
  /** `{id}` stubs, or users when extended; none: the reference's nil list (`null`). */
  readonly participants: Json[] | null;
  /** Only where the reader has a membership of the thread (the reference's LEFT JOIN: absent otherwise). */
  readonly is_following?: boolean;
}

/**
 * The reference's prepareThreadedResponse for a page of roots: each thread's participants (authors of live replies
 * in order of first reply; full users with `extended`) and whether `userId` follows it. One participants read and
 * one membership read per root that has had a reply (others have neither); roots without any are left out.
 */
export async function collapsedThreadFields(
  deps: Pick<Deps, 'posts' | 'threads' | 'users' | 'liveConfig'>,
  userId: string,
  roots: readonly StoredPost[],
  extended: boolean,
): Promise<ReadonlyMap<string, CollapsedThreadFields>> {
  const threads = roots.filter(isThread);
  if (threads.length === 0) return new Map();
  const read = await Promise.all(
    threads.map(async (root) => {
      const [participantIds, membership] = await Promise.all([deps.posts.participants(root.channel_id, root.id), deps.threads.find(root.id, userId)]);
      return { root, replies: [], participantIds, membership };
    }),
  );
  const users = await participantsOf(deps, read, extended);
  return new Map(
    read.map(({ root, participantIds, membership }) => {
      const participants = participantIds.flatMap((id) => {
        const user = users.get(id);
        return user ? [user] : [];
      });
      const fields: CollapsedThreadFields = { participants: participants.length > 0 ? participants : null, ...(membership ? { is_following: membership.following } : {}) };
      return [root.id, fields];
    }),
  );
}
