import { AppError, badRequest, forbidden } from '@switchyard/errors';

/** `dialogs/submit` errors. Ids are the reference's; see each for where Switchyard differs. */
export const dialogErrors = {
  /** Switchyard's own rule (the reference forwards any URL): no dialog open for this user matches. */
  notOpen: (userId: string): AppError =>
    forbidden('api.context.permissions.app_error', 'You do not have the appropriate permissions.', {
      detailedError: `userId=${userId}, no open dialog of this user has this url, callback_id and state`,
    }),
  /** The newest reference answers 500; an integration's garbage is not a server fault here, so 400. */
  decodeJson: (detailed: string): AppError =>
    badRequest('app.submit_interactive_dialog.decode_json_error', 'Encountered an error decoding JSON response from interactive dialog.', { detailedError: detailed }),
  invalidResponse: (detailed: string): AppError =>
    badRequest('app.submit_interactive_dialog.invalid_response', 'The interactive dialog response is invalid.', { detailedError: detailed }),
};
