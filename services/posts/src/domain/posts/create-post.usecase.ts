import { commonErrors } from '@switchyard/errors';
import { newId } from '@switchyard/ids';
import { hasPermission, Permissions } from '@switchyard/permissions';
import { accessTo } from '../access';
import type { Actor } from '../actor';
import type { StoredPost } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { normaliseAttachments } from '../rules/attachments';
import { LEGACY_HOOK_KEY_PROP } from '../rules/hook-origin';
import { checkClientType, checkFileIds, checkMessage, checkProps, PENDING_POST_WINDOW_MS } from '../rules/post-rules';
import { checkReplyRoot } from './reply-root';
import { fileAttachedEvents } from './post-events';
import { buildStoredPost, storeNewPost } from './store-post';
import { attachFiles } from '../files/attach-files';

export interface CreatePostCommand {
  readonly channel_id: string;
  readonly message: string;
  readonly type: string;
  readonly props: Record<string, unknown>;
  readonly root_id: string;
  readonly file_ids: string[];
  readonly pending_post_id: string;
  readonly create_at?: number;
  readonly priority?: Record<string, unknown>;
}

/** Props a client may not set on create (the reference removes them; the hook key is internal). */
const CLIENT_REMOVED_PROPS = ['add_channel_member', 'force_notification', LEGACY_HOOK_KEY_PROP];

/** What 12.0 strips from a human's session and personal-access-token posts (`StripIntegrationPropsFromUserPosts`). */
export const USER_POST_STRIPPED_PROPS = ['from_webhook', 'override_username', 'override_icon_url'] as const;

/**
 * `POST /posts`: channel membership (create_post) or, for bots and others, the system roles
 * system_post_all (every channel) / system_post_all_public (open channels). A repeated
 * pending_post_id within 30 s returns the first post.
 */
export async function createPost(deps: Deps, actor: Actor, command: CreatePostCommand): Promise<StoredPost> {
  // Identity, type and archive state are all it needs: the command cache (every channel change evicts it).
  const channel = await deps.cachedChannels.cached(command.channel_id);
  if (!channel) {
    if (hasPermission(actor.roles, Permissions.createPost)) throw Errors.channelNotFound();
    throw commonErrors.permissions(actor.userId, Permissions.createPost);
  }
  await accessTo(deps, actor, channel).requirePost();
  if (channel.delete_at !== 0) throw Errors.postToArchived();
  checkClientType(command.type);
  checkMessage(command.message);
  checkFileIds(command.file_ids);
  const now = deps.clock.now();
  if (command.pending_post_id !== '') {
    const previous = await deps.posts.findByPendingPostId(actor.userId, command.pending_post_id, now - PENDING_POST_WINDOW_MS);
    if (previous) return previous;
  }
  await checkReplyRoot(deps, channel.id, command.root_id);
  let metadata: Record<string, unknown> | undefined;
  if (command.priority) {
    if (command.root_id !== '') throw Errors.priorityRootOnly();
    if (!deps.liveConfig.current().ServiceSettings.PostPriority) throw Errors.priorityDisabled();
    metadata = { priority: command.priority };
  }
  const props = normaliseAttachments(command.props);
  for (const key of CLIENT_REMOVED_PROPS) delete props[key];
  if (!actor.isBot && deps.liveConfig.current().ServiceSettings.StripIntegrationPropsFromUserPosts) for (const key of USER_POST_STRIPPED_PROPS) delete props[key];
  // 11.10 silent posts come from bots and hooks only.
  if (!actor.isBot) delete props.silent_notification;
  if (actor.isBot) props.from_bot = 'true';
  checkProps(props);
  const createAt = command.create_at !== undefined && command.create_at > 0 && hasPermission(actor.roles, Permissions.manageSystem) ? command.create_at : now;
  const postId = newId();
  // Files are claimed for the post before it is written: the post's file_ids and metadata.files are the attached subset.
  const attached = await attachFiles(deps, { id: postId, channel_id: channel.id, user_id: actor.userId }, command.file_ids, now);
  if (attached.files) metadata = { ...(metadata ?? {}), files: attached.files };
  const post = buildStoredPost(
    {
      id: postId,
      channel_id: channel.id,
      user_id: actor.userId,
      message: command.message,
      type: command.type,
      props,
      root_id: command.root_id,
      file_ids: attached.fileIds,
      pending_post_id: command.pending_post_id,
      create_at: createAt,
      ...(metadata ? { metadata } : {}),
    },
    'api',
  );
  post.pending_events.push(...fileAttachedEvents(post.id, attached.fileIds, now, 'api'));
  const stored = await storeNewPost(deps, post, channel);
  // The answer waits for the channel's counters too (total_msg_count, last_post_at read right after).
  await stored?.counted;
  return post;
}
