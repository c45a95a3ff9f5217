import { Topics } from '@switchyard/contracts';
import type { MembershipCache } from '../membership-cache';
import type { MembershipChanges, Viewer } from './replay';

/** Channel lookups started at most per filter (the other channels are read and looked up as they are replayed). */
const MAX_LOOKUPS_PER_READ = 1_000;

/**
 * Log messages of no use to `viewer`, by their key: posts.events are keyed by their channel id and go only to
 * the channel's members, so a post of a channel the viewer is not in now and did not join or leave since the
 * cursor (`changes`) was never theirs (visibleEvents would drop it after parsing). Membership answers come
 * from the cache only; an unknown channel is read (and looked up now, for the next rounds).
 */
export function skipFilter(membership: MembershipCache, viewer: Viewer, changes: MembershipChanges): (topic: string, key: string) => boolean {
  const asked = new Set<string>();
  return (topic, key) => {
    if (topic !== Topics.postsEvents || key === '' || changes.has(key)) return false;
    const member = membership.knownMember(key, viewer.userId);
    if (member === undefined) {
      if (!asked.has(key) && asked.size < MAX_LOOKUPS_PER_READ) {
        asked.add(key);
        membership.channelMembers(key).catch(() => undefined);
      }
      return false;
    }
    return !member;
  };
}
