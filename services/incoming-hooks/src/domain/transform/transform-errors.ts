import { badRequest, unauthorized, type AppError as AppErrorType } from '@switchyard/errors';

/** The Hook transform row's error ids (spec "Extension wire format"). */
export const TransformErrors = {
  /** An evaluation error or limit, an unusable result, a payload the template does not know, a bad expression. */
  failed: (detail: string): AppErrorType => badRequest('api.webhook.transform.app_error', 'The webhook transform could not turn the payload into a post.', { detailedError: detail, publicDetail: true }),
  /** A wrong or missing vendor signature (only when the hook has a `transform_secret`). */
  signature: (detail: string): AppErrorType =>
    unauthorized('api.webhook.transform.signature.app_error', 'The webhook signature is missing or does not match.', { detailedError: detail, publicDetail: true }),
};
