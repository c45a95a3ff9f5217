import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { Channel, ChannelMember, PendingEvent, Reaction, StoredPost } from '../../domain/entities';
import { isDuplicateKeyError } from '../../domain/errors';

export type Factory<T> = () => Promise<T> | T;

let counter = 0;

export function aChannel(overrides: Partial<Channel> = {}): Channel {
  counter += 1;
  return {
    id: newId(),
    create_at: 1_000 + counter,
    update_at: 1_000 + counter,
    delete_at: 0,
    team_id: newId(),
    team_name: 'team',
    type: 'O',
    display_name: `Channel ${counter}`,
    name: `channel-${counter}-${newId().slice(0, 6)}`,
    header: '',
    purpose: '',
    last_post_at: 0,
    total_msg_count: 0,
    total_msg_count_root: 0,
    last_root_post_at: 0,
    extra_update_at: 0,
    creator_id: newId(),
    ...overrides,
  };
}

export function aChannelMember(overrides: Partial<ChannelMember> = {}): ChannelMember {
  counter += 1;
  return {
    channel_id: newId(),
    user_id: newId(),
    scheme_user: true,
    scheme_admin: false,
    explicit_roles: '',
    last_viewed_at: 0,
    msg_count: 0,
    mention_count: 0,
    last_update_at: 1_000 + counter,
    create_at: 1_000 + counter,
    ...overrides,
  };
}

export function anEvent(postId: string, kind = 'created', time = 1): PendingEvent {
  return { id: `${postId}:${kind}`, type: 'post.created', time, source: 'api' };
}

export function aPost(overrides: Partial<StoredPost> = {}): StoredPost {
  counter += 1;
  const id = overrides.id ?? newId();
  const createAt = overrides.create_at ?? 10_000 + counter;
  return {
    id,
    create_at: createAt,
    update_at: createAt,
    edit_at: 0,
    delete_at: 0,
    is_pinned: false,
    user_id: newId(),
    channel_id: newId(),
    root_id: '',
    original_id: '',
    message: `message ${counter}`,
    type: '',
    props: { attachments: [{ text: 'a', actions: [{ id: 'x', integration: { url: 'http://u', context: { 'dotted.key': 1, $dollar: true } } }] }], 'a.b': '$c' },
    hashtags: '',
    file_ids: [],
    pending_post_id: '',
    reply_count: 0,
    last_reply_at: 0,
    participants: null,
    has_reactions: false,
    pending_events: [],
    ...overrides,
  };
}

export function aReaction(overrides: Partial<Reaction> = {}): Reaction {
  counter += 1;
  return { user_id: newId(), post_id: newId(), emoji_name: 'smile', create_at: 1_000 + counter, update_at: 1_000 + counter, delete_at: 0, remote_id: '', channel_id: newId(), ...overrides };
}

export async function rejectsDuplicate(action: () => Promise<unknown>, key: string): Promise<void> {
  await assert.rejects(action, (error: unknown) => isDuplicateKeyError(error) && error.key === key);
}
