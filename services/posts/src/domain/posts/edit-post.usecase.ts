import { commonErrors } from '@switchyard/errors';
import { hasPermission, Permissions } from '@switchyard/permissions';
import { accessTo, loadChannel, requireOwnOrOthers } from '../access';
import type { Actor } from '../actor';
import type { PostChanges, StoredPost } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { normaliseAttachments } from '../rules/attachments';
import { checkFileIds, checkMessage, checkProps, hashtagsOf, isSystemType, keepProtectedProps } from '../rules/post-rules';
import { fileAttachedEvents, updatedEvent } from './post-events';
import { presentFileInfo } from '../files/file-info';
import { loadPostFor } from './load-post';
import { attachFiles } from '../files/attach-files';

/** What `PUT /posts/{id}` and `PUT /posts/{id}/patch` may change (undefined: unchanged). */
export interface PostEdit {
  readonly message?: string;
  readonly props?: Record<string, unknown>;
  readonly file_ids?: string[] | null;
  readonly is_pinned?: boolean;
}

/**
 * Edits a post: own posts need edit_post (or the right to post there now: a bot posting with
 * system_post_all edits what it posted), others' edit_others_posts (a bot with system_admin has both). System messages, deleted posts and archived channels cannot be edited. A bot's post keeps
 * `from_bot` whatever the edit says. `edit_at` moves when the message, files or attachments change.
 */
export async function editPost(deps: Deps, actor: Actor, postId: string, edit: PostEdit): Promise<StoredPost> {
  const post = await loadPostFor(deps, actor, postId, Permissions.editOthersPosts, true);
  const channel = await loadChannel(deps, post.channel_id);
  const access = accessTo(deps, actor, channel);
  await requireOwnOrOthers(access, post.user_id === actor.userId, Permissions.editPost, Permissions.editOthersPosts);
  if (post.delete_at !== 0) throw Errors.editDeletedPost();
  if (isSystemType(post.type)) throw Errors.editSystemPost();
  if (channel.delete_at !== 0) throw Errors.channelArchived();
  const limit = deps.liveConfig.current().ServiceSettings.PostEditTimeLimit;
  const now = deps.clock.now();
  if (limit !== -1 && !hasPermission(actor.roles, Permissions.manageSystem) && now > post.create_at + limit * 1000) throw Errors.editTimeLimit(limit);

  const changes: { -readonly [K in keyof PostChanges]: PostChanges[K] } = { update_at: now };
  let edited = false;
  let newFiles: string[] = [];
  if (edit.message !== undefined && edit.message !== post.message) {
    checkMessage(edit.message);
    changes.message = edit.message;
    changes.hashtags = hashtagsOf(edit.message);
    edited = true;
  }
  if (edit.file_ids !== undefined && edit.file_ids !== null && JSON.stringify(edit.file_ids) !== JSON.stringify(post.file_ids)) {
    checkFileIds(edit.file_ids);
    // Newly listed files are attached with the create rules (the author's, same channel, not attached);
    // files already on the post stay (removing one is not supported yet).
    const added = edit.file_ids.filter((id) => !post.file_ids.includes(id));
    const attached = await attachFiles(deps, post, added, now);
    if (attached.fileIds.length > 0) {
      newFiles = attached.fileIds;
      changes.file_ids = [...post.file_ids, ...attached.fileIds];
      // The post's files are among its file ids (a read by id; MongoDB-wire emulators scan for a post's files otherwise).
      changes.metadata = { ...(post.metadata ?? {}), files: (await deps.files.listByPost(post.id, changes.file_ids)).map((f) => presentFileInfo(f)) };
      edited = true;
    }
  }
  if (edit.props !== undefined) {
    const props = keepProtectedProps(post.props, normaliseAttachments(edit.props));
    checkProps(props);
    if (JSON.stringify(props.attachments ?? null) !== JSON.stringify(post.props.attachments ?? null)) edited = true;
    changes.props = props;
  }
  if (edit.is_pinned !== undefined) changes.is_pinned = edit.is_pinned;
  if (edited) changes.edit_at = now;
  const updated = await deps.posts.update(post.id, changes, updatedEvent(post.id, now, 'api'));
  if (!updated) throw Errors.postNotFound();
  // After post.updated in the outbox: the files' events (a rare write: one each).
  for (const event of fileAttachedEvents(post.id, newFiles, now, 'api')) await deps.posts.addEvent(post.id, event);
  void deps.relay(post);
  return updated;
}

/** `PUT /posts/{id}`: the body id must be the URL id (the reference's `c.SetInvalidParam("id")`: 400 invalid_body_param). */
export async function updatePost(deps: Deps, actor: Actor, postId: string, bodyId: string, edit: PostEdit): Promise<StoredPost> {
  if (bodyId !== postId) throw commonErrors.invalidBodyParam('id');
  return editPost(deps, actor, postId, edit);
}
