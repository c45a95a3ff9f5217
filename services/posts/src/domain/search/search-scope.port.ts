import type { ChannelMemberRepository, ChannelRepository } from '../ports';

/** Which channels a search may read, decided in the store (the reference joins ChannelMembers in SQL). */
export interface SearchScope {
  /**
   * Ids of the channels the user is a member of right now: those of `teamId` plus the user's DMs and GMs
   * (team ""), or those of every team when `teamId` is undefined; archived ones only when `includeArchived`.
   * Any order. The list may be shared with later calls (an adapter's cache): never change it.
   */
  readableChannelIds(userId: string, teamId: string | undefined, includeArchived: boolean): Promise<readonly string[]>;
}

/** The scope from the two repositories (two reads; a store that can join does it in one query instead). */
export function repositorySearchScope(channels: Pick<ChannelRepository, 'findScopes'>, members: Pick<ChannelMemberRepository, 'channelIdsOfUser'>): SearchScope {
  return {
    async readableChannelIds(userId, teamId, includeArchived) {
      const ids = await members.channelIdsOfUser(userId);
      if (ids.length === 0) return [];
      const scopes = await channels.findScopes(ids);
      return scopes.filter((c) => (teamId === undefined || c.team_id === teamId || c.team_id === '') && (includeArchived || c.delete_at === 0)).map((c) => c.id);
    },
  };
}
