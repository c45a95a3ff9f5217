import { mentionedNames, mentionTexts } from '@switchyard/contracts';
import type { Channel, StoredPost } from '../entities';

const CHANNEL_WIDE = new Set(['channel', 'all', 'here']);
/** At most this many distinct `@names` of one post are looked up (bounded work per post). */
const MAX_NAMES = 50;
/** From this many members on, `@channel`, `@all` and `@here` mention nobody (the reference's MaxNotificationsPerChannel default). */
export const MAX_NOTIFIED_MEMBERS = 1_000;

/** Who a post mentions as far as its `@` words and channel tell, before any look-up. */
export interface MentionPlan {
  /** Ids mentioned without a look-up: the other user of a direct channel. */
  readonly direct: readonly string[];
  /** `@username`s to look up (channel-wide words excluded). */
  readonly names: readonly string[];
  /** `@channel` or `@all`. */
  readonly everyone: boolean;
  readonly here: boolean;
}

type MentioningPost = Pick<StoredPost, 'message' | 'props' | 'user_id'>;

/**
 * The reference's rules (sendNotifications, getExplicitMentions): in a direct channel every post mentions
 * the other user (a self-DM nobody); elsewhere (group channels included) the `@names` of the message and
 * its attachments' texts, read from `texts` (mention-text-runs.ts: Markdown text only; by default the raw texts).
 * Undefined when the post has no `@` word (mention keys and first names aside).
 */
export function mentionPlan(channel: Pick<Channel, 'type' | 'name'>, post: MentioningPost, texts: readonly string[] = mentionTexts(post)): MentionPlan | undefined {
  if (channel.type === 'D') {
    // The reference's DMMention: each of the two users but the author; both when a webhook posted it.
    const webhook = post.props?.from_webhook === 'true';
    const direct = [...new Set(channel.name.split('__'))].filter((id) => id !== '' && (webhook || id !== post.user_id));
    return direct.length > 0 ? { direct, names: [], everyone: false, here: false } : undefined;
  }
  const all = new Set<string>();
  for (const text of texts) for (const name of mentionedNames(text)) all.add(name);
  if (all.size === 0) return undefined;
  const names = [...all].filter((n) => !CHANNEL_WIDE.has(n)).slice(0, MAX_NAMES);
  return { direct: [], names, everyone: all.has('channel') || all.has('all'), here: all.has('here') };
}
