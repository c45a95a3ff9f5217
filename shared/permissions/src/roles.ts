import { ALL_PERMISSIONS, Permissions as P } from './permissions';

/** Role names as the reference spells them (`server/public/model/role.go`). */
export const Roles = {
  systemAdmin: 'system_admin',
  systemUser: 'system_user',
  systemGuest: 'system_guest',
  systemPostAll: 'system_post_all',
  systemPostAllPublic: 'system_post_all_public',
  systemUserAccessToken: 'system_user_access_token',
  teamAdmin: 'team_admin',
  teamUser: 'team_user',
  teamGuest: 'team_guest',
  teamPostAll: 'team_post_all',
  teamPostAllPublic: 'team_post_all_public',
  channelAdmin: 'channel_admin',
  channelUser: 'channel_user',
  channelGuest: 'channel_guest',
} as const;

export type RoleName = (typeof Roles)[keyof typeof Roles];

const channelUser = [
  P.readChannel,
  P.readChannelContent,
  P.addReaction,
  P.removeReaction,
  P.managePublicChannelMembers,
  P.uploadFile,
  P.getPublicLink,
  P.createPost,
  P.useChannelMentions,
  P.useSlashCommands,
  P.managePublicChannelProperties,
  P.deletePublicChannel,
  P.managePrivateChannelProperties,
  P.deletePrivateChannel,
  P.managePrivateChannelMembers,
  P.deletePost,
  P.editPost,
];

/**
 * The reference's default role → permission sets, with its later permission migrations applied
 * (webhook permissions split into own/others/bypass-lock). `system_admin` holds every permission.
 */
export const DEFAULT_ROLE_PERMISSIONS: Readonly<Record<RoleName, readonly string[]>> = {
  system_admin: ALL_PERMISSIONS,
  system_user: [
    P.listPublicTeams,
    P.joinPublicTeams,
    P.createDirectChannel,
    P.createGroupChannel,
    P.viewMembers,
    P.createTeam,
    // The reference's emoji permissions migration grants these to every user.
    P.createEmojis,
    P.deleteEmojis,
  ],
  system_guest: [P.createDirectChannel, P.createGroupChannel],
  system_post_all: [P.createPost, P.useChannelMentions],
  system_post_all_public: [P.createPostPublic, P.useChannelMentions],
  system_user_access_token: [P.createUserAccessToken, P.readUserAccessToken, P.revokeUserAccessToken],
  team_admin: [
    P.removeUserFromTeam,
    P.manageTeam,
    P.importTeam,
    P.manageTeamRoles,
    P.manageChannelRoles,
    P.manageOwnIncomingWebhooks,
    P.manageOthersIncomingWebhooks,
    P.bypassIncomingWebhookChannelLock,
    P.manageOwnOutgoingWebhooks,
    P.manageOthersOutgoingWebhooks,
    P.manageIncomingWebhooks,
    P.manageOutgoingWebhooks,
    P.manageSlashCommands,
    P.manageOthersSlashCommands,
    P.convertPublicChannelToPrivate,
    P.convertPrivateChannelToPublic,
    P.deletePost,
    P.deleteOthersPosts,
  ],
  team_user: [
    P.listTeamChannels,
    P.joinPublicChannels,
    P.readPublicChannel,
    P.viewTeam,
    P.createPublicChannel,
    P.createPrivateChannel,
    P.inviteUser,
    P.addUserToTeam,
  ],
  team_guest: [P.viewTeam],
  team_post_all: [P.createPost, P.useChannelMentions],
  team_post_all_public: [P.createPostPublic, P.useChannelMentions],
  channel_admin: [P.manageChannelRoles, P.useGroupMentions],
  channel_user: channelUser,
  channel_guest: [
    P.readChannel,
    P.readChannelContent,
    P.addReaction,
    P.removeReaction,
    P.uploadFile,
    P.editPost,
    P.createPost,
    P.useChannelMentions,
    P.useSlashCommands,
  ],
};

/** Roles `PUT /users/{id}/roles` may assign (system scope). */
export const ASSIGNABLE_SYSTEM_ROLES: readonly string[] = [
  Roles.systemUser,
  Roles.systemAdmin,
  Roles.systemPostAll,
  Roles.systemPostAllPublic,
  Roles.systemUserAccessToken,
];
