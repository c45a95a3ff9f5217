import { ApiError } from './client';

/** Words for people, from any failure: the server's own message when it sent an AppError. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return 'The server could not be reached. Check your connection and try again.';
    if (error.body?.message) return error.body.message;
    if (error.status === 401) return 'Your session has ended. Please sign in again.';
    if (error.status === 403) return 'You do not have permission to do this.';
    if (error.status === 404) return 'It was not found; it may have been deleted.';
    if (error.status === 429) return 'Too many requests; wait a moment and try again.';
    return `The server answered ${error.status}.`;
  }
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}
