import { randomBytes } from 'node:crypto';

/** The fake server's ids, errors (the reference's ids and messages) and request helpers. Test-only. */

export const ALPHABET = 'ybndrfg8ejkmcpqxot1uwisza345h769';

export function fakeId(): string {
  const bytes = randomBytes(26);
  return Array.from(bytes, (b) => ALPHABET[b % 32]).join('');
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly id: string,
    message: string,
  ) {
    super(message);
  }
}

export const sessionExpired = (): HttpError => new HttpError(401, 'api.context.session_expired.app_error', 'Invalid or expired session, please login again.');
export const permissions = (): HttpError => new HttpError(403, 'api.context.permissions.app_error', 'You do not have the appropriate permissions.');
export const userMissing = (): HttpError => new HttpError(404, 'app.user.missing_account.const', 'Unable to find the user.');
/** The reference's GetUserByUsername answers its own id for a missing username. */
export const usernameMissing = (): HttpError => new HttpError(404, 'app.user.get_by_username.app_error', 'Unable to find an existing account matching your username for this team.');
export const botMissing = (): HttpError => new HttpError(404, 'store.sql_bot.get.missing.app_error', 'Bot does not exist.');
export const invalidUrlParam = (): HttpError => new HttpError(400, 'api.context.invalid_url_param.app_error', 'Invalid or missing parameter in request URL.');
export const BOT_USERNAME = /^[a-z][a-z0-9._-]{2,21}$/;

export function bearer(authorization: string | undefined): string | undefined {
  const match = authorization?.match(/^bearer (.+)$/i);
  return match?.[1];
}

export function paging(url: URL): { page: number; perPage: number } {
  const page = Math.max(0, Number(url.searchParams.get('page') ?? 0) || 0);
  const perPage = Math.min(200, Number(url.searchParams.get('per_page') ?? 60) || 60);
  return { page, perPage };
}
