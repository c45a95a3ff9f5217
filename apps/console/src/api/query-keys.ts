/**
 * Every TanStack Query key of the console, in one place. Keys are arrays from the general to the particular, so a
 * prefix (for example `keys.channelPosts(id)` or `keys.outgoingHooks.all`) invalidates everything under it.
 */
export const keys = {
  me: ['users', 'me'] as const,
  myTeams: ['users', 'me', 'teams'] as const,
  myTeamMembers: ['users', 'me', 'teams', 'members'] as const,
  myChannels: (teamId: string | undefined) => ['users', 'me', 'teams', teamId, 'channels'] as const,
  /** Every channel-scoped query (posts of each channel): refreshed after the WebSocket reconnects. */
  channels: ['channels'] as const,
  channelPosts: (channelId: string | undefined) => ['channels', channelId, 'posts'] as const,
  pinned: (channelId: string | undefined) => ['channels', channelId, 'pinned'] as const,
  usersByIds: (sortedIds: string) => ['users', 'ids', sortedIds] as const,
  /** The user list of menus with `data_source: users`. */
  usersList: ['users', 'list'] as const,
  peoplePage: (page: number) => ['users', 'list', page] as const,
  statuses: ['statuses'] as const,
  statusesOf: (sortedIds: string) => ['statuses', sortedIds] as const,
  reactions: ['reactions'] as const,
  reactionsOf: (postId: string) => ['reactions', postId] as const,
  ephemeral: (channelId: string) => ['ephemeral', channelId] as const,
  openDialog: ['open-dialog'] as const,
  dialogTriggers: ['open-dialog', 'triggers'] as const,
  search: (teamId: string, terms: string) => ['search', teamId, terms] as const,
  bots: ['bots'] as const,
  commands: (teamId: string | undefined) => ['commands', teamId] as const,
  incomingHooks: { all: ['hooks', 'incoming'] as const, ofTeam: (teamId: string | undefined) => ['hooks', 'incoming', teamId] as const },
  outgoingHooks: {
    all: ['hooks', 'outgoing'] as const,
    ofTeam: (teamId: string | undefined) => ['hooks', 'outgoing', teamId] as const,
    deliveries: (hookId: string) => ['hooks', 'outgoing', 'deliveries', hookId] as const,
  },
  config: ['config'] as const,
};
