export { envelope, envelopeSchema, type Envelope } from './envelope';
export { Topics, ALL_TOPICS, TOPIC_PARTITIONS, EVENT_STREAM_TOPICS, EVENT_STREAM_MIN_RETENTION_MS, type TopicName } from './topics';
export { usersEventPayloadSchema, TEAM_EVENT_TYPES, type UsersEvent, type UsersEventType, type UsersEventPayload, type TeamEventType } from './users-events';
export { CONFIG_EVENT_KEY, type ConfigUpdatedEvent } from './config-events';
export { InternalPaths, PostsInternalPaths, RealtimeInternalPaths, Services, INTEGRATION_BOTS, type IntegrationSender, type ResolvedSession, type InternalUser, type UserMentionSettings, type UserUpdatedCopies, type InternalTeam, type InternalBot, type InternalPostView, type InternalFileOwner, type ServiceName } from './internal-api';
export type { WirePost, WirePostPriority, InternalChannel, InternalChannelMember, PostSource, PostAuthor } from './posts-model';
export {
  postEventPayloadSchema,
  reactionEventPayloadSchema,
  fileAttachedPayloadSchema,
  type FileAttachedPayload,
  type FileAttachedEvent,
  type PostsEventType,
  type PostEventPayload,
  type ReactionEventPayload,
  type PostCreatedEvent,
  type ReactionEvent,
  type PostsEvent,
  type PostRefusedEvent,
  type PostRefusedPayload,
} from './posts-events';
export { createPostCommandPayloadSchema, type CreatePostCommand, type CreatePostCommandPayload } from './posts-commands';
export type { ChannelsEvent, ChannelsEventType, ChannelsEventPayload } from './channels-events';
export {
  ephemeralPostPayloadSchema,
  openDialogPayloadSchema,
  typingPayloadSchema,
  ephemeralPostMessage,
  type RealtimeEventType,
  type RealtimeEvent,
  type EphemeralPostPayload,
  type EphemeralPostEvent,
  type OpenDialogPayload,
  type OpenDialogEvent,
  type TypingPayload,
  type TypingEvent,
} from './realtime-events';
export { stripIntegrations, clientPost } from './client-post';
export { mentionedNames, mentionTexts, postMentionedNames, type MentionSource } from './mentioned-names';
export { PictureUploadLimits, PROFILE_IMAGE_UPLOAD, BOT_ICON_UPLOAD, EMOJI_UPLOAD, pictureUploadRoute, type PictureUploadRoute, FILE_UPLOAD_SLACK_BYTES, FILE_UPLOAD_TOO_LARGE, isFileUpload, isFileDownload, isHookUpload } from './picture-uploads';
export { SERVER_MAJOR_VERSION, SERVER_VERSION } from './server-version';
export { statusChangedPayloadSchema, type StatusChangedPayload, type StatusChangedEvent } from './status-events';
export { channelViewedPayloadSchema, type ChannelViewedPayload, type ChannelViewedEvent } from './view-events';
export { channelMemberUpdatedPayloadSchema, type ChannelMemberUpdatedPayload, type ChannelMemberUpdatedEvent } from './channel-member-events';
export {
  threadUpdatedPayloadSchema,
  threadFollowChangedPayloadSchema,
  threadReadChangedPayloadSchema,
  type ThreadUpdatedPayload,
  type ThreadFollowChangedPayload,
  type ThreadReadChangedPayload,
  type ThreadUpdatedEvent,
  type ThreadFollowChangedEvent,
  type ThreadReadChangedEvent,
  type ThreadEvent,
} from './thread-events';
export { emojiAddedPayloadSchema, type EmojiAddedPayload, type EmojiAddedEvent } from './emoji-events';
export { preferencesEventPayloadSchema, type PreferencesEventPayload, type PreferencesChangedEvent, type PreferencesDeletedEvent } from './preference-events';
