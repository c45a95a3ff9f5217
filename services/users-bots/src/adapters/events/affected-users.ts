import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';

/**
 * Response header naming the users whose sessions a request changed (deactivation, revocation, role
 * change, ...): the gateway drops their cached sessions before it answers, so the client's very next
 * request sees the change even before the users.events message reaches every gateway. Internal: the
 * gateway removes it from the public response.
 */
export const AFFECTED_USERS_HEADER = 'x-switchyard-affected-users';

const storage = new AsyncLocalStorage<Set<string>>();

/** Called where users.events are published: remembers the user for the current request, if any. */
export function noteAffectedUser(userId: string): void {
  storage.getStore()?.add(userId);
}

const USERS = Symbol('affected-users');
type WithUsers = Response & { [USERS]?: Set<string> };

/** Express middleware: collects the users noted while handling the request into the response header. */
export function affectedUsersHeader() {
  return (_req: Request, res: Response, next: NextFunction): void => {
    const users = new Set<string>();
    (res as WithUsers)[USERS] = users;
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
    (res as unknown as { writeHead: (...args: unknown[]) => Response }).writeHead = (...args: unknown[]) => {
      if (users.size > 0 && !res.headersSent) res.setHeader(AFFECTED_USERS_HEADER, [...users].join(','));
      return writeHead(...args);
    };
    storage.run(users, next);
  };
}

/**
 * Re-enters the request's collection after the body was read: http-kit's rawBody continues from the
 * stream's 'end' callback, which runs outside the request's async context on a real socket.
 */
export function restoreAffectedUsers() {
  return (_req: Request, res: Response, next: NextFunction): void => {
    const users = (res as WithUsers)[USERS];
    if (users) storage.run(users, next);
    else next();
  };
}
