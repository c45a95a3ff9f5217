import { AppError, badRequest, forbidden, internalError, notFound, notImplemented } from '@switchyard/errors';

/** Slash-command errors with the reference's ids and statuses (mattermost-wire-2.md §2). */
export const commandErrors = {
  disabled: (): AppError => notImplemented('api.command.disabled.app_error', 'Commands have been disabled by the system admin.'),
  /** Every lookup failure of get/update/delete/regen (missing, other team, not allowed): never a 403. */
  notFound: (): AppError => notFound('store.sql_command.save.get.app_error', 'Unable to get the command.'),
  duplicateTrigger: (): AppError => badRequest('api.command.duplicate_trigger.app_error', 'This trigger word is already in use. Please choose another word.'),
  teamMismatch: (userId: string): AppError => badRequest('api.command.team_mismatch.app_error', 'Unable to update commands across teams.', { detailedError: `user_id=${userId}` }),
  invalid: (field: string): AppError => badRequest(`model.command.is_valid.${field}.app_error`, `Invalid ${field.replace(/_/g, ' ')}.`),
  /** Bot rule 11 (requirements): commands are created as a user, never by or for a bot. */
  createdByBot: (): AppError => forbidden('api.command.create_command.bot.app_error', 'Slash commands are always created as a user, never as a bot.'),
  creatorNotFound: (): AppError => notFound('app.user.missing_account.const', 'Unable to find the user.'),
};

const triggerParam = (trigger: string): string => (trigger.length > 512 ? `${trigger.slice(0, 512)}...` : trigger);

/** `/commands/execute` errors. */
export const executeErrors = {
  start: (): AppError => badRequest('api.command.execute_command.start.app_error', 'No command trigger found.'),
  deletedChannel: (): AppError => badRequest('api.command.execute_command.deleted.error', 'Cannot execute commands in a deleted channel.'),
  teamNotFound: (): AppError => notFound('app.team.get.find.app_error', 'Unable to find the existing team.'),
  channelNotFound: (): AppError => notFound('app.channel.get.existing.app_error', 'Unable to find the existing channel.'),
  notFound: (trigger: string): AppError =>
    notFound(
      'api.command.execute_command.not_found.app_error',
      `Command with a trigger of '${triggerParam(trigger)}' not found. To send a message beginning with "/", try adding an empty space at the beginning of the message.`,
    ),
  siteUrlRequired: (): AppError =>
    badRequest('api.command.execute_command.site_url_required.app_error', 'The Site URL must be configured (ServiceSettings.SiteURL) to execute custom slash commands.'),
  failed: (trigger: string, detailed = ''): AppError =>
    internalError('api.command.execute_command.failed.app_error', `Command with a trigger of '${trigger}' failed.`, { detailedError: detailed }),
  failedEmpty: (trigger: string): AppError =>
    internalError('api.command.execute_command.failed_empty.app_error', `Command with a trigger of '${trigger}' returned an empty response.`),
  failedResp: (trigger: string, status: string, body: string): AppError =>
    internalError('api.command.execute_command.failed_resp.app_error', `Command with a trigger of '${trigger}' returned response ${status}.`, { detailedError: body }),
  createPostFailed: (trigger: string, detailed = ''): AppError =>
    internalError('api.command.execute_command.create_post_failed.app_error', `Command '${trigger}' failed to post response. Please contact your System Administrator.`, { detailedError: detailed }),
  postForbidden: (): AppError => forbidden('api.command.command_post.forbidden.app_error', 'Specified user is not a member of specified channel.'),
};

/** `POST /hooks/commands/{id}` (response_url) errors. */
export const commandWebhookErrors = {
  parse: (detailed = ''): AppError => badRequest('web.command_webhook.parse.app_error', 'Unable to parse incoming data.', { detailedError: detailed }),
  missing: (): AppError => notFound('app.command_webhook.get.missing', 'Unable to get the webhook.'),
  usedUp: (): AppError => badRequest('app.command_webhook.try_use.invalid', 'Invalid webhook.'),
  commandGone: (): AppError => badRequest('web.command_webhook.command.app_error', 'Could not find the command.'),
};
