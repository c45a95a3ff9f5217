import { ApiError, isApiError, type ApiClient } from './api-client';
import type { User } from './types';
import { UsageError } from './usage-error';

const ID_PATTERN = /^[a-z0-9]{26}$/;
const PAGE_SIZE = 200;
const MAX_PAGES = 10_000;

/** True when `value` has the shape of a 26-character Mattermost id. */
export function looksLikeId(value: string): boolean {
  return ID_PATTERN.test(value);
}

/**
 * Finds a user from what an admin types: a 26-character id, an e-mail address, or a username
 * (a leading `@` is allowed). Each form uses one direct lookup:
 *   id       → GET /users/{id}   (then by username: a 26-character username is legal)
 *   e-mail   → GET /users/email/{email}; where the server has no such route, pages GET /users
 *   username → GET /users/username/{username}
 * Lookups that find nobody throw the server's 404 ApiError.
 */
export async function resolveUser(client: ApiClient, reference: string): Promise<User> {
  const ref = reference.trim();
  if (ref === '' || ref === '@') throw new UsageError('expected a user e-mail, username or id');

  if (looksLikeId(ref)) {
    try {
      return await client.get<User>(`/users/${ref}`);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      return await client.get<User>(`/users/username/${encodeURIComponent(ref)}`).catch((second: unknown) => {
        throw isNotFound(second) ? error : second;
      });
    }
  }
  if (ref.includes('@') && !ref.startsWith('@')) return resolveByEmail(client, ref);
  const username = ref.startsWith('@') ? ref.slice(1) : ref;
  return client.get<User>(`/users/username/${encodeURIComponent(username.toLowerCase())}`);
}

async function resolveByEmail(client: ApiClient, email: string): Promise<User> {
  try {
    return await client.get<User>(`/users/email/${encodeURIComponent(email)}`);
  } catch (error) {
    // A server without the route answers route-not-found (404 api.context.404, 405, 501), or reads `email` as a
    // malformed user id (400 invalid_url_param): fall back to scanning the user list.
    if (!isApiError(error) || !isMissingRoute(error)) throw error;
  }
  const wanted = email.toLowerCase();
  for (let page = 0; page < MAX_PAGES; page++) {
    const users = await client.get<User[]>('/users', { page, per_page: PAGE_SIZE });
    const match = users.find((user) => (user.email ?? '').toLowerCase() === wanted);
    if (match) return match;
    if (users.length < PAGE_SIZE) break;
  }
  throw new ApiError('app.user.missing_account.const', `No user has the e-mail address ${email}.`, 404);
}

function isNotFound(error: unknown): error is ApiError {
  return isApiError(error) && error.statusCode === 404;
}

function isMissingRoute(error: ApiError): boolean {
  return (
    error.id === 'api.context.404.app_error' ||
    error.id === 'api.context.invalid_url_param.app_error' ||
    error.statusCode === 405 ||
    error.statusCode === 501
  );
}
