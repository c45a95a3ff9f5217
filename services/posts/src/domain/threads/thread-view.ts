import type { InternalUser } from '@switchyard/contracts';
import type { StoredPost } from '../entities';
import { toWirePost } from '../events/outbox-relay';
import type { Deps } from '../ports';
import { stripIntegrations } from '../rules/attachments';
import { isUrgent } from '../rules/post-priority';
import type { ThreadMembership } from './thread-ports';

type Json = Record<string, unknown>;

/** A thread as the reference's ThreadResponse (model/thread.go), in its field order. */
export interface ThreadResponse {
  readonly id: string;
  readonly reply_count: number;
  readonly last_reply_at: number;
  readonly last_viewed_at: number;
  /** `{id}` stubs, or users (sanitised as for anyone) when extended. */
  readonly participants: Json[];
  readonly post: Json;
  readonly unread_replies: number;
  readonly unread_mentions: number;
  readonly is_urgent: boolean;
  readonly delete_at: number;
}

/** A thread's root and its live replies, read once for every membership shown. */
export interface ThreadContent {
  readonly root: StoredPost;
  readonly replies: readonly StoredPost[];
  /** Reply authors, in the order of their first reply. */
  readonly participantIds: readonly string[];
}

/** A thread exists once its root has had a reply (the reference's Threads row). */
export function isThread(root: StoredPost | undefined): root is StoredPost {
  return root !== undefined && root.root_id === '' && root.last_reply_at > 0;
}

export async function threadContent(deps: Pick<Deps, 'posts'>, root: StoredPost): Promise<ThreadContent> {
  const replies = await deps.posts.listReplies(root.channel_id, root.id);
  return { root, replies, participantIds: [...new Set(replies.map((r) => r.user_id))] };
}

/** A participant as anyone may see them (the reference's SanitizeProfile: full names only when ShowFullName). */
function participantOf(user: InternalUser, showFullName: boolean): Json {
  return {
    id: user.id,
    username: user.username,
    first_name: showFullName ? user.firstName : '',
    last_name: showFullName ? user.lastName : '',
    nickname: user.nickname,
    position: '',
    roles: user.roles,
    is_bot: user.isBot,
    delete_at: user.deleteAt,
  };
}

/** Participants of these threads: `{id}` stubs, or the users themselves (unknown ids left out) when extended. */
export async function participantsOf(deps: Pick<Deps, 'users' | 'liveConfig'>, contents: readonly ThreadContent[], extended: boolean): Promise<Map<string, Json>> {
  const ids = [...new Set(contents.flatMap((c) => c.participantIds))];
  if (!extended) return new Map(ids.map((id) => [id, { id }]));
  if (ids.length === 0) return new Map();
  const showFullName = deps.liveConfig.current().PrivacySettings.ShowFullName;
  const users = await deps.users.usersByIds(ids);
  return new Map(users.map((u) => [u.id, participantOf(u, showFullName)]));
}

/** The root as clients see it (no outbox, no action integrations), its reply count the thread's. */
function rootJson(root: StoredPost): Json {
  const { has_reactions: hasReactions, props, ...rest } = toWirePost(root);
  return { ...rest, props: stripIntegrations(props), ...(hasReactions ? { has_reactions: true } : {}) };
}

/**
 * One user's view of a thread: their last view, unread replies since then (counted in `content.replies`
 * unless given), unread mentions, and whether its root is urgent (only while post priority is on).
 */
export function threadResponse(
  content: ThreadContent,
  membership: Pick<ThreadMembership, 'last_viewed' | 'unread_mentions'>,
  participants: ReadonlyMap<string, Json>,
  shown: { readonly priority: boolean; readonly unreadReplies?: number },
): ThreadResponse {
  const unreadReplies = shown.unreadReplies ?? content.replies.filter((r) => r.create_at > membership.last_viewed).length;
  const { root } = content;
  return {
    id: root.id,
    reply_count: root.reply_count,
    last_reply_at: root.last_reply_at,
    last_viewed_at: membership.last_viewed,
    participants: content.participantIds.flatMap((id) => {
      const p = participants.get(id);
      return p ? [p] : [];
    }),
    post: rootJson(root),
    unread_replies: unreadReplies,
    unread_mentions: membership.unread_mentions,
    // The reference answers is_urgent only while post priority is on (IncludeIsUrgent, IsPostPriorityEnabled).
    is_urgent: shown.priority && isUrgent(root),
    delete_at: root.delete_at,
  };
}
