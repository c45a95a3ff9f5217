import { badRequest, forbidden, notFound, notImplemented, type AppError } from '@switchyard/errors';

export { DuplicateKeyError, isDuplicateKeyError } from '@switchyard/errors';

/** The reference's error ids for this service, in one place. */
export const Errors = {
  channelNotFound: (): AppError => notFound('app.channel.get.existing.app_error', 'Unable to find the existing channel.'),
  channelByNameNotFound: (): AppError => notFound('app.channel.get_by_name.missing.app_error', 'Channel does not exist.'),
  channelExists: (): AppError => badRequest('store.sql_channel.save_channel.exists.app_error', 'A channel with that name already exists on the same team.'),
  channelName: (detail = ''): AppError => badRequest('model.channel.is_valid.name.app_error', 'Invalid channel name.', { detailedError: detail }),
  channelDisplayName: (): AppError => badRequest('model.channel.is_valid.display_name.app_error', 'Invalid display name.'),
  channelHeader: (): AppError => badRequest('model.channel.is_valid.header.app_error', 'Invalid header.'),
  channelPurpose: (): AppError => badRequest('model.channel.is_valid.purpose.app_error', 'Invalid purpose.'),
  channelType: (): AppError => badRequest('model.channel.is_valid.type.app_error', 'Invalid type.'),
  directChannelType: (): AppError => badRequest('api.channel.create_channel.direct_channel.app_error', 'Must use createDirectChannel API service for direct message channel creation.'),
  directUserMissing: (): AppError => badRequest('api.channel.create_direct_channel.invalid_user.app_error', 'Invalid user ID for direct channel creation.'),
  memberNotFound: (): AppError => notFound('app.channel.get_member.missing.app_error', 'No channel member found for that user ID and channel ID.'),
  addMemberType: (): AppError => badRequest('api.channel.add_user_to_channel.type.app_error', 'Can not add user to this channel type.'),
  addMemberNotInTeam: (): AppError => forbidden('api.channel.add_user.to.channel.failed.deleted.app_error', 'Failed to add user to channel because they have been removed from the team.'),
  addMemberUnknownUser: (): AppError => badRequest('api.channel.add_user.to.channel.failed.app_error', 'Failed to add user to channel.'),
  removeMemberType: (): AppError => badRequest('api.channel.remove_user_from_channel.direct_channel.app_error', 'Can not remove user from a direct message channel.'),
  archiveDirect: (): AppError => badRequest('api.channel.delete_channel.type.invalid', 'Unable to delete direct or group message channels.'),
  channelArchived: (): AppError => badRequest('api.channel.delete_channel.deleted.app_error', 'The channel has been archived or deleted.'),
  postNotFound: (): AppError => notFound('app.post.get.app_error', 'Unable to get the post.'),
  postToArchived: (): AppError => badRequest('api.post.create_post.can_not_post_to_deleted.error', 'Can not post to deleted channel.'),
  postRootId: (): AppError => badRequest('api.post.create_post.root_id.app_error', 'Invalid RootId parameter.'),
  postMessageLength: (length: number, max: number): AppError =>
    badRequest('model.post.is_valid.message_length.app_error', `Post Message property is longer than the maximum permitted length of ${max} characters.`, { detailedError: `Length=${length}, MaxLength=${max}` }),
  postProps: (): AppError => badRequest('model.post.is_valid.props.app_error', 'Invalid props.'),
  postType: (): AppError => badRequest('model.post.is_valid.type.app_error', 'Invalid type.'),
  postFileIds: (): AppError => badRequest('model.post.is_valid.file_ids.app_error', 'Invalid file ids.'),
  editSystemPost: (): AppError => badRequest('api.post.update_post.system_message.app_error', 'Unable to update system message.'),
  editDeletedPost: (): AppError => badRequest('api.post.update_post.find.app_error', 'We couldn\'t find the existing post or comment to update.'),
  editTimeLimit: (limit: number): AppError => badRequest('api.post.update_post.permissions_time_limit.app_error', `Post edit is only allowed for ${limit} seconds. Please ask your System Administrator for details.`),
  permanentDeleteDisabled: (): AppError => notImplemented('api.post.delete_post.not_enabled.app_error', 'Cannot delete post, API post deletion is disabled.'),
  priorityRootOnly: (): AppError => badRequest('api.post.post_priority.priority_post_only_allowed_for_root_post.request_error', 'Post priority is only allowed for root posts.'),
  priorityDisabled: (): AppError => forbidden('api.post.post_priority.priority_post_not_allowed_for_user.request_error', 'You are not allowed to set post priority.'),
  reactionInvalid: (detail = ''): AppError => badRequest('api.reaction.save_reaction.invalid.app_error', 'Reaction is not valid.', { detailedError: detail }),
  reactionEmojiName: (): AppError => badRequest('model.reaction.is_valid.emoji_name.app_error', 'Invalid emoji name.'),
  reactionOtherUser: (): AppError => forbidden('api.reaction.save_reaction.user_id.app_error', 'You can not save reaction for the other user.'),
  reactionArchived: (): AppError => forbidden('api.reaction.save.archived_channel.app_error', 'You cannot react to a post in an archived channel.'),
  reactionDeleteOtherUser: (): AppError => forbidden('api.reaction.delete_reaction.user_id.app_error', 'You can not delete reaction for the other user.'),
  reactionDeleteArchived: (): AppError => forbidden('api.reaction.delete.archived_channel.app_error', 'You cannot remove a reaction in an archived channel.'),
};
