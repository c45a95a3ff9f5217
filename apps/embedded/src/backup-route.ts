import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { InternalPaths, Services, type ResolvedSession } from '@switchyard/contracts';
import { commonErrors, isAppError, notFound } from '@switchyard/errors';
import { callJson, serviceCredential, type ServiceTransport } from '@switchyard/http-kit';
import type { Logger } from '@switchyard/logger';
import type { SqliteStore } from '@switchyard/sqlite-kit';
import { ARCHIVE, backupArchive, newStaging } from './backup-archive';

export const BACKUP_PATH = '/api/v4/system/backup';

/** The shape of the gateway's edge routes (an express middleware, in node's own types). */
export type EdgeRoute = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** The request id the gateway gave the request (createHttpApp sets it before any route). */
function requestIdOf(req: IncomingMessage): string {
  return (req as IncomingMessage & { requestId?: string }).requestId ?? '';
}

export interface BackupRouteDeps {
  readonly store: SqliteStore;
  readonly transport: ServiceTransport;
  readonly internalSecret: string;
  readonly logger: Logger;
  /** Where uploaded files live (see filesDirOf): included in the archive when under the data directory. */
  readonly files?: () => { dir: string } | { note: string };
}

function bearer(req: IncomingMessage): string | undefined {
  const match = /^(?:bearer|token)\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

/**
 * `GET /api/v4/system/backup` (embedded runtime only; system admins): a tar archive of an online,
 * consistent copy of the whole store (SQLite's backup API, into a staging directory in the data directory)
 * and of the uploaded files directory, taken after the store copy (every file info in the copy names bytes
 * written before it; files uploaded meanwhile are extra bytes no info names), streamed back, then removed. The token is checked by users-bots, as the gateway does for every route.
 *
 * A middleware the gateway mounts among its edge routes, after its path decision: it sees the canonical
 * target (dot segments were already answered with 301, encoded characters decoded), so its exact-path
 * match is the gateway's. Every other request goes to `next`; errors too (the gateway's error answer).
 */
export function backupRoute(deps: BackupRouteDeps): EdgeRoute {
  // This route is part of the embedded runtime's edge, so it resolves tokens as the gateway does.
  const as = serviceCredential(Services.gateway, deps.internalSecret);
  const resolve = async (token: string): Promise<ResolvedSession | undefined> => {
    try {
      return await callJson<ResolvedSession>(deps.transport, Services.usersBots, { method: 'POST', path: InternalPaths.resolveToken, as, body: { token } });
    } catch (error) {
      if (isAppError(error) && error.statusCode >= 400 && error.statusCode < 500) return undefined;
      throw error;
    }
  };

  const backup = async (req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> => {
    if (req.method !== 'GET') throw notFound('api.context.404.app_error', 'Sorry, we could not find the page.');
    const token = bearer(req);
    const session = token === undefined ? undefined : await resolve(token);
    if (!session) throw commonErrors.sessionExpired();
    if (!session.roles.split(/\s+/).includes('system_admin')) throw commonErrors.permissions(session.userId, 'manage_system');
    const staging = await newStaging(deps.store.dir, randomBytes(8).toString('hex'));
    try {
      await deps.store.backup(join(staging, ARCHIVE.database));
      const files = deps.files?.() ?? { note: 'no files directory' };
      const archive = await backupArchive(staging, deps.store.dir, files);
      res.statusCode = 200;
      res.setHeader('Content-Type', 'application/x-tar');
      res.setHeader('Content-Disposition', `attachment; filename="switchyard-${new Date().toISOString().replace(/[:.]/g, '-')}.tar"`);
      res.setHeader('X-Request-ID', requestId);
      await pipeline(archive, res);
      deps.logger.info('backup streamed', { user_id: session.userId, files: 'dir' in files, request_id: requestId });
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  };

  return (req, res, next) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== BACKUP_PATH) {
      next();
      return;
    }
    backup(req, res, requestIdOf(req)).catch((error: unknown) => {
      if (!isAppError(error)) deps.logger.error('backup failed', { error, request_id: requestIdOf(req) });
      if (res.headersSent) res.destroy();
      else next(error);
    });
  };
}
