import { newId } from '@switchyard/ids';
import type { Channel } from '../entities';

/** What a caller decides about a channel it creates; everything else starts fresh. */
export type NewChannelFields = Pick<Channel, 'team_id' | 'team_name' | 'type' | 'display_name' | 'name' | 'creator_id'> &
  Partial<Pick<Channel, 'header' | 'purpose'>>;

/** A channel as created at `now`: a new id, no posts yet, not archived. */
export function newChannel(fields: NewChannelFields, now: number): Channel {
  return {
    id: newId(),
    create_at: now,
    update_at: now,
    delete_at: 0,
    header: '',
    purpose: '',
    ...fields,
    last_post_at: now,
    total_msg_count: 0,
    total_msg_count_root: 0,
    last_root_post_at: now,
    extra_update_at: 0,
  };
}
