import type { Actor } from '../actor';
import type { StoredPost } from '../entities';
import type { Deps } from '../ports';
import { requireSelfOrEditOthers, requireViewTeam } from './thread-access';
import { isUrgent } from '../rules/post-priority';
import type { ThreadMembership } from './thread-ports';
import { isThread, participantsOf, threadContent, threadResponse, type ThreadResponse } from './thread-view';

/** `GET /users/{user_id}/teams/{team_id}/threads` query, as the reference reads it. */
export interface ThreadListQuery {
  /** ms; 0: no lower bound. */
  readonly since: number;
  readonly before: string;
  readonly after: string;
  /** 0: the store's default of 30. */
  readonly perPage: number;
  readonly deleted: boolean;
  readonly unread: boolean;
  readonly extended: boolean;
  readonly totalsOnly: boolean;
  readonly threadsOnly: boolean;
  readonly excludeDirect: boolean;
}

/** The reference's Threads (model/thread.go), in its field order; `threads` null with totalsOnly. */
export interface ThreadList {
  readonly total: number;
  readonly total_unread_threads: number;
  readonly total_unread_mentions: number;
  readonly total_unread_urgent_mentions: number;
  readonly threads: ThreadResponse[] | null;
}

const DEFAULT_PAGE_SIZE = 30;

interface Followed {
  readonly membership: ThreadMembership;
  readonly root: StoredPost;
}

const unread = (f: Followed): boolean => f.membership.last_viewed < f.root.last_reply_at;
const byLastReply = (a: Followed, b: Followed): number => a.root.last_reply_at - b.root.last_reply_at || (a.root.id < b.root.id ? -1 : a.root.id > b.root.id ? 1 : 0);

/**
 * The threads the user follows in the team and (unless excludeDirect) in direct and group channels,
 * in channels they still belong to; totals count them all (deleted roots only with `deleted`), the page
 * is the newest reply first (oldest first after `after`), `since`, `unread`, `before`/`after` narrowing
 * only the page, as the reference does.
 */
export async function listUserThreads(deps: Deps, actor: Actor, userId: string, teamId: string, readQuery: () => ThreadListQuery): Promise<ThreadList> {
  requireSelfOrEditOthers(actor, userId);
  await requireViewTeam(deps, actor, teamId);
  // The query is read after the permission checks, as the reference does (its errors come second).
  const query = readQuery();
  const memberships = await deps.threads.listFollowing(userId, query.excludeDirect ? [teamId] : [teamId, '']);
  const roots = new Map((memberships.length > 0 ? await deps.posts.findByIds(memberships.map((m) => m.post_id)) : []).map((p) => [p.id, p]));
  const followed: Followed[] = [];
  for (const membership of memberships) {
    const root = roots.get(membership.post_id);
    if (!isThread(root) || (!query.deleted && root.delete_at !== 0)) continue;
    if (!(await deps.cachedMembers.cachedMember(root.channel_id, userId))) continue;
    followed.push({ membership, root });
  }

  const totals = query.threadsOnly
    ? { total: 0, total_unread_threads: 0, total_unread_mentions: 0 }
    : {
        total: followed.length,
        total_unread_threads: followed.filter(unread).length,
        total_unread_mentions: followed.reduce((sum, f) => sum + f.membership.unread_mentions, 0),
      };
  if (query.unread) totals.total = totals.total_unread_threads;
  // The reference counts them only while post priority is on (GetTotalUnreadUrgentMentions): unread mentions of urgent threads.
  const priority = deps.liveConfig.current().ServiceSettings.PostPriority;
  const urgent = query.threadsOnly || !priority ? 0 : followed.filter((f) => isUrgent(f.root)).reduce((sum, f) => sum + f.membership.unread_mentions, 0);
  if (query.totalsOnly) return { ...totals, total_unread_urgent_mentions: urgent, threads: null };

  let page = followed;
  if (query.since > 0) page = page.filter((f) => f.membership.last_updated >= query.since || f.root.last_reply_at >= query.since);
  if (query.unread) page = page.filter(unread);
  const cursorId = query.before !== '' ? query.before : query.after;
  if (cursorId !== '') {
    const cursor = await deps.posts.findById(cursorId);
    // The reference compares with the cursor thread's last reply: no such thread, no page.
    if (!isThread(cursor)) page = [];
    else page = page.filter((f) => (query.before !== '' ? f.root.last_reply_at < cursor.last_reply_at : f.root.last_reply_at > cursor.last_reply_at));
  }
  page = [...page].sort(byLastReply);
  if (query.after === '') page.reverse();
  page = page.slice(0, query.perPage > 0 ? query.perPage : DEFAULT_PAGE_SIZE);

  const contents = await Promise.all(page.map((f) => threadContent(deps, f.root)));
  const participants = await participantsOf(deps, contents, query.extended);
  const threads = contents.map((content, i) => threadResponse(content, (page[i] as Followed).membership, participants, { priority }));
  return { ...totals, total_unread_urgent_mentions: urgent, threads };
}
