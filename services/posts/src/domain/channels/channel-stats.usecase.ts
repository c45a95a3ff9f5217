import type { Actor } from '../actor';
import type { Deps } from '../ports';
import { readableChannel } from '../pins/pin-post.usecase';
import { MAX_PINNED } from '../pins/list-pinned.usecase';

const MEMBER_PAGE = 1000;
/** Members counted at most (bounded work per request). */
const MAX_MEMBERS = 100_000;

export interface ChannelStats {
  readonly channel_id: string;
  readonly member_count: number;
  readonly guest_count: number;
  readonly pinnedpost_count: number;
  readonly files_count: number;
}

/**
 * `GET /channels/{id}/stats` (mattermost-wire-3.md §3.5): read_channel; members whose account is active;
 * no guests exist here; `files_count` -1 when excluded, else 0 (file counts are the files work's).
 */
export async function channelStats(deps: Deps, actor: Actor, channelId: string, excludeFiles: boolean): Promise<ChannelStats> {
  await readableChannel(deps, actor, channelId);
  let memberCount = 0;
  for (let page = 0; page * MEMBER_PAGE < MAX_MEMBERS; page++) {
    const members = await deps.channelMembers.listByChannel(channelId, { page, perPage: MEMBER_PAGE });
    if (members.length === 0) break;
    const users = await deps.users.usersByIds(members.map((m) => m.user_id));
    memberCount += users.filter((u) => u.deleteAt === 0).length;
    if (members.length < MEMBER_PAGE) break;
  }
  const pinned = await deps.posts.list({ channelId, includeDeleted: false, pinnedOnly: true, skip: 0, limit: MAX_PINNED });
  return { channel_id: channelId, member_count: memberCount, guest_count: 0, pinnedpost_count: pinned.length, files_count: excludeFiles ? -1 : 0 };
}
