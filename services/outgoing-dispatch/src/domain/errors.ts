import { AppError, badRequest, forbidden, internalError, notFound, notImplemented } from '@switchyard/errors';

/** Outgoing-webhook errors with the reference's ids (mattermost-wire.md §10). */
export const hookErrors = {
  disabled: (): AppError => notImplemented('api.outgoing_webhook.disabled.app_error', 'Outgoing webhooks have been disabled by the system admin.'),
  notFound: (): AppError => notFound('app.webhooks.get_outgoing.app_error', 'Unable to get the webhook.'),
  triggersOnCreate: (): AppError => badRequest('api.webhook.create_outgoing.triggers.app_error', 'Either trigger_words or channel_id must be set.'),
  triggersOnUpdate: (): AppError => internalError('api.webhook.create_outgoing.triggers.app_error', 'Either trigger_words or channel_id must be set.'),
  notOpenOnCreate: (): AppError => forbidden('api.outgoing_webhook.disabled.app_error', 'Outgoing webhooks can only be created for public channels.'),
  notOpenOnUpdate: (): AppError => forbidden('api.webhook.create_outgoing.not_open.app_error', 'Outgoing webhooks can only be created for public channels.'),
  teamPermissions: (): AppError => forbidden('api.webhook.create_outgoing.permissions.app_error', 'Invalid permissions to create outgoing webhook.'),
  intersectOnCreate: (): AppError => internalError('api.webhook.create_outgoing.intersect.app_error', 'Outgoing webhooks from the same channel cannot have the same trigger words/callback URLs.'),
  intersectOnUpdate: (): AppError => badRequest('api.webhook.update_outgoing.intersect.app_error', 'Outgoing webhooks from the same channel cannot have the same trigger words/callback URLs.'),
  teamMismatch: (): AppError => badRequest('api.webhook.team_mismatch.app_error', 'Unable to update webhook across teams.'),
  channelNotFound: (): AppError => notFound('app.channel.get.existing.app_error', 'Unable to find the existing channel.'),
  invalid: (field: string, detailed = ''): AppError =>
    badRequest(`model.outgoing_hook.is_valid.${field}.app_error`, `Invalid ${field.replace(/_/g, ' ')}.`, { detailedError: detailed }),
  deliveryNotFound: (): AppError => notFound('app.webhooks.get_outgoing_delivery.app_error', 'Unable to get the delivery.'),
};

export const actionErrors = {
  actionNotFound: (): AppError => notFound('api.post.do_action.action_id.app_error', 'Unable to find the action.'),
  /** `statusCode`/`headers`: the 11.10 pass-through of an integration's 429/503 and the 502 for its other 5xx (actions/upstream-answer.ts). */
  integration: (detailed: string, relay: { readonly statusCode?: number; readonly headers?: Readonly<Record<string, string>> } = {}): AppError =>
    badRequest('api.post.do_action.action_integration.app_error', 'Action integration error.', { detailedError: detailed, ...relay }),
  postNotFound: (): AppError => notFound('app.post.get.app_error', 'Unable to get the post.'),
};
