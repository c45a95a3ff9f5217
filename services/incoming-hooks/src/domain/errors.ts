import { AppError, badRequest, commonErrors, forbidden, notFound, notImplemented, payloadTooLarge, unavailable, type AppError as AppErrorType } from '@switchyard/errors';

export { DuplicateKeyError, isDuplicateKeyError } from '@switchyard/errors';

/** The reference's error ids for incoming webhooks (mattermost-wire.md §9), in one place. */
export const Errors = {
  // CRUD (api4)
  crudDisabled: (): AppErrorType => notImplemented('api.incoming_webhook.disabled.app_error', 'Incoming webhooks have been disabled by the system admin.'),
  hookNotFound: (): AppErrorType => notFound('app.webhooks.get_incoming.app_error', 'Unable to get the webhook.'),
  channelNotFound: (): AppErrorType => notFound('app.channel.get.existing.app_error', 'Unable to find the existing channel.'),
  displayName: (): AppErrorType => badRequest('model.incoming_hook.display_name.app_error', 'Invalid title.'),
  description: (): AppErrorType => badRequest('model.incoming_hook.description.app_error', 'Invalid description.'),
  username: (): AppErrorType => badRequest('model.incoming_hook.username.app_error', 'Invalid username.'),
  iconUrl: (): AppErrorType => badRequest('model.incoming_hook.icon_url.app_error', 'Invalid icon.'),
  teamId: (): AppErrorType => badRequest('model.incoming_hook.team_id.app_error', 'Invalid team ID.'),
  invalidUsername: (): AppErrorType => badRequest('api.incoming_webhook.invalid_username.app_error', 'Invalid username.'),
  teamMismatch: (): AppErrorType => badRequest('api.webhook.team_mismatch.app_error', 'Unable to update webhook across teams.'),
  userNotFound: (): AppErrorType => notFound('app.user.missing_account.const', 'Unable to find the user.'),
  // POST /hooks/{key} (web)
  disabled: (): AppErrorType => notImplemented('web.incoming_webhook.disabled.app_error', 'Incoming webhooks have been disabled by the system admin.'),
  badContentType: (detail: string): AppErrorType => badRequest('api.webhook.incoming.error', 'Could not decode the multipart payload of incoming webhook.', { detailedError: detail }),
  parseData: (detail: string): AppErrorType => badRequest('model.incoming_hook.parse_data.app_error', 'Unable to parse incoming data', { detailedError: detail }),
  parse: (): AppErrorType => badRequest('web.incoming_webhook.parse.app_error', 'Unable to parse incoming data.'),
  noText: (): AppErrorType => badRequest('web.incoming_webhook.text.app_error', 'No text specified.'),
  invalidHook: (): AppErrorType => badRequest('web.incoming_webhook.invalid.app_error', 'Invalid webhook.'),
  dmUserNotFound: (): AppErrorType => badRequest('web.incoming_webhook.user.app_error', 'Couldn\'t find the user.'),
  targetChannelNotFound: (): AppErrorType => notFound('web.incoming_webhook.channel.app_error', 'Couldn\'t find the channel.'),
  channelLocked: (): AppErrorType => forbidden('web.incoming_webhook.channel_locked.app_error', 'This webhook is not permitted to post to the requested channel.'),
  ownerNotFound: (): AppErrorType => forbidden('web.incoming_webhook.user.app_error', 'Couldn\'t find the user.'),
  channelPermissions: (): AppErrorType => forbidden('web.incoming_webhook.permissions.app_error', 'Inappropriate channel permissions.'),
  splitPropsLength: (): AppErrorType => badRequest('web.incoming_webhook.split_props_length.app_error', 'Unable to split webhook props into 760000 character parts.'),
  /** The reference answers 500 here; a bad request is the sender's fault, so Switchyard answers 400 with the same id. */
  creating: (detail: string): AppErrorType => badRequest('api.post.create_webhook_post.creating.app_error', 'Error creating post', { detailedError: `err=${detail}` }),
  archivedChannel: (): AppErrorType => badRequest('api.post.create_post.can_not_post_to_deleted.error', 'Can not post to deleted channel.'),
  idempotencyInFlight: (): AppErrorType =>
    new AppError('conflict', { id: 'api.incoming_webhook.idempotency.in_progress.app_error', message: 'A request with this Idempotency-Key is still being processed.', headers: { 'Retry-After': '1' } }),
  /** `IncomingWebhookAckMode=stored` and posts did not confirm in time; the commands stay queued. */
  storeTimeout: (): AppErrorType =>
    unavailable('web.incoming_webhook.store_timeout.app_error', 'The post was queued but not confirmed stored in time; it may still appear.'),
  rateLimited: commonErrors.rateLimited,
  // Files on incoming hooks (README "Files on incoming hooks"): the ids of `POST /files` and of post file_ids.
  attachmentsDisabled: (): AppErrorType => notImplemented('api.file.attachments.disabled.app_error', 'File attachments have been disabled on this server.'),
  fileTooLarge: (filename: string, limit: number): AppErrorType =>
    payloadTooLarge('api.file.upload_file.too_large_detailed.app_error', `Unable to upload file ${filename}. -1 bytes exceeds the maximum allowed ${limit} bytes.`, {
      detailedError: `Filename=${filename}, Length=-1, Limit=${limit}`,
    }),
  tooManyFiles: (max: number): AppErrorType => badRequest('model.post.is_valid.file_ids.app_error', 'Invalid file ids.', { detailedError: `a hook post carries at most ${max} files` }),
  filePart: (name: string, detail: string): AppErrorType => badRequest('api.context.invalid_body_param.app_error', `Invalid or missing ${name} in request body.`, { detailedError: detail }),
  filesNeedPayload: (): AppErrorType => badRequest('web.incoming_webhook.parse.app_error', 'Unable to parse incoming data.', { detailedError: 'a request with files needs a payload part holding the JSON body' }),
  invalidParam: commonErrors.invalidParam,
  rootId: (): AppErrorType => badRequest('api.post.create_post.root_id.app_error', 'Invalid RootId parameter.'),
  invalidBodyParam: commonErrors.invalidBodyParam,
  permissions: commonErrors.permissions,
};
