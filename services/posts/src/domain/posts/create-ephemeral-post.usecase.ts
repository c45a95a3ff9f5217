import { clientPost, envelope, ephemeralPostMessage, Topics, type WirePost } from '@switchyard/contracts';
import { commonErrors } from '@switchyard/errors';
import { newId } from '@switchyard/ids';
import { hasPermission, Permissions } from '@switchyard/permissions';
import type { Actor } from '../actor';
import type { StoredPost } from '../entities';
import type { Deps } from '../ports';
import { normaliseAttachments } from '../rules/attachments';
import { checkMessage, checkProps } from '../rules/post-rules';
import { buildStoredPost } from './store-post';

export const EPHEMERAL_POST_TYPE = 'system_ephemeral';

export interface EphemeralPostCommand {
  /** Who sees it: the post reaches that user's WebSocket connections as `ephemeral_message`. */
  readonly user_id: string;
  readonly post: {
    /** Kept when the client sends one (the reference keeps it, so an integration can replace the post); else generated. */
    readonly id?: string;
    readonly channel_id: string;
    readonly message: string;
    readonly props: Record<string, unknown>;
    readonly root_id: string;
  };
}

/**
 * `POST /posts/ephemeral`: needs create_post_ephemeral (system admins by default), else 403. The post is
 * never stored, counted or announced: it is built as a stored post would be (author = the caller, type
 * `system_ephemeral`, create_at now, action ids generated, attachments normalised) and answered.
 */
export function createEphemeralPost(deps: Pick<Deps, 'clock'>, actor: Actor, command: EphemeralPostCommand): StoredPost {
  if (!hasPermission(actor.roles, Permissions.createPostEphemeral)) throw commonErrors.permissions(actor.userId, Permissions.createPostEphemeral);
  checkMessage(command.post.message);
  const props = normaliseAttachments(command.post.props);
  checkProps(props);
  const { pending_events: _notStored, ...post } = buildStoredPost(
    {
      id: command.post.id !== undefined && command.post.id !== '' ? command.post.id : newId(),
      channel_id: command.post.channel_id,
      user_id: actor.userId,
      message: command.post.message,
      type: EPHEMERAL_POST_TYPE,
      props,
      root_id: command.post.root_id,
      file_ids: [],
      pending_post_id: '',
      create_at: deps.clock.now(),
    },
    'api',
  );
  return { ...post, pending_events: [] };
}

/**
 * Sends the ephemeral post to `userId` only (realtime.events → `ephemeral_message` on their WebSocket
 * connections, whatever channel it names). Nothing is stored.
 */
export async function sendEphemeralPost(deps: Pick<Deps, 'events'>, userId: string, post: StoredPost): Promise<void> {
  const { pending_events: _notStored, ...wire } = post;
  const event = envelope('ephemeral.post', { user_id: userId, post: clientPost(wire as WirePost) as unknown as WirePost });
  try {
    await deps.events.publish(Topics.realtimeEvents, [ephemeralPostMessage(event)]);
  } catch {
    throw commonErrors.serverBusy();
  }
}
