import type { InternalChannel, InternalChannelMember, WirePost } from '@switchyard/contracts';
import { wireChannelMember } from '../../domain/channels/channel-member-wire';
import { toInternalChannel, wireChannel } from '../../domain/channels/channel-events';
import { toWirePost } from '../../domain/events/outbox-relay';
import type { CollapsedThreadFields } from '../../domain/posts/collapsed-thread-fields';
import type { ThreadPage } from '../../domain/posts/get-thread.usecase';
import { channelMemberRoles, type Channel, type ChannelMember, type Reaction, type StoredPost } from '../../domain/entities';
import { stripIntegrations } from '../../domain/rules/attachments';
import { withoutHookKey } from '../../domain/rules/hook-origin';

type Json = Record<string, unknown>;

/** Channel JSON (mattermost-wire.md §6). */
export function presentChannel(channel: Channel): Json {
  return wireChannel(channel);
}

/** ChannelMember JSON (mattermost-wire.md §6). */
export function presentMember(member: ChannelMember): Json {
  return wireChannelMember(member);
}

/** Post JSON for clients: no outbox, no hook key, no action integrations; has_reactions only when true (omitempty). */
export function presentPost(post: StoredPost): Json {
  // One copy of the post (the same fields, in the same order, as toWirePost and then dropping has_reactions).
  const { pending_events: _pending, incoming_hook_id: _hook, has_reactions: hasReactions, props, ...rest } = post;
  const out: Json = rest;
  out.props = stripIntegrations(withoutHookKey(props));
  if (hasReactions) out.has_reactions = true;
  return out;
}

/** The stored post (integrations included, hook key never) for other services. */
export function presentStoredPost(post: StoredPost): WirePost {
  return toWirePost(post);
}

/** `threads`: collapsed threads' fields of the listed roots (participants, is_following), laid over their posts. */
export function presentPostList(posts: readonly StoredPost[], nextPostId = '', prevPostId = '', threads?: ReadonlyMap<string, CollapsedThreadFields>): Json {
  const map: Record<string, Json> = {};
  for (const post of posts) {
    const fields = threads?.get(post.id);
    map[post.id] = fields ? { ...presentPost(post), ...fields } : presentPost(post);
  }
  return { order: posts.map((p) => p.id), posts: map, next_post_id: nextPostId, prev_post_id: prevPostId, first_inaccessible_post_time: 0 };
}

/** `GET /posts/{id}/thread`: a PostList in the page's order, `has_next` when paged; collapsed threads add the requested post's thread fields (participants, is_following). */
export function presentThread(page: ThreadPage): Json {
  const list = presentPostList(page.posts);
  const first = page.order[0];
  if (page.thread && first !== undefined) {
    const posts = list.posts as Record<string, Json>;
    posts[first] = { ...posts[first], participants: page.thread.participants, is_following: page.thread.isFollowing };
  }
  return page.hasNext === undefined ? list : { ...list, has_next: page.hasNext };
}

export function presentReaction(reaction: Reaction): Json {
  return { ...reaction };
}

export function presentInternalChannel(channel: Channel): InternalChannel {
  return toInternalChannel(channel);
}

export function presentInternalMember(member: ChannelMember): InternalChannelMember {
  return { channel_id: member.channel_id, user_id: member.user_id, roles: channelMemberRoles(member) };
}
