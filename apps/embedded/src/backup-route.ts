import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { InternalPaths, Services, type ResolvedSession } from '@switchyard/contracts';
import { commonErrors, isAppError, notFound, toWireError } from '@switchyard/errors';
import { callJson, newRequestId, serviceCredential, type ServiceTransport } from '@switchyard/http-kit';
import type { Logger } from '@switchyard/logger';
import type { SqliteStore } from '@switchyard/sqlite-kit';

export const BACKUP_PATH = '/api/v4/system/backup';

export interface BackupRouteDeps {
  readonly store: SqliteStore;
  readonly transport: ServiceTransport;
  readonly internalSecret: string;
  readonly logger: Logger;
}

function bearer(req: IncomingMessage): string | undefined {
  const match = /^(?:bearer|token)\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

function sendError(res: ServerResponse, error: unknown, requestId: string): void {
  const wire = toWireError(error, { requestId, developer: false });
  res.statusCode = wire.status_code;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('X-Request-ID', requestId);
  res.end(JSON.stringify(wire));
}

/**
 * `GET /api/v4/system/backup` (embedded runtime only; system admins): an online, consistent copy of the
 * whole store (SQLite's backup API, into a temporary file in the data directory, streamed back and then
 * removed). The token is checked by users-bots, as the gateway does for every route. Every other request
 * goes to `next` (the gateway).
 */
export function withBackupRoute(next: RequestListener, deps: BackupRouteDeps): RequestListener {
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
    const file = join(deps.store.dir, `backup-${randomBytes(8).toString('hex')}.tmp`);
    try {
      await deps.store.backup(file);
      const { size } = await stat(file);
      res.statusCode = 200;
      res.setHeader('Content-Type', 'application/vnd.sqlite3');
      res.setHeader('Content-Length', String(size));
      res.setHeader('Content-Disposition', `attachment; filename="switchyard-${new Date().toISOString().replace(/[:.]/g, '-')}.db"`);
      res.setHeader('X-Request-ID', requestId);
      await pipeline(createReadStream(file), res);
      deps.logger.info('backup streamed', { user_id: session.userId, bytes: size, request_id: requestId });
    } finally {
      await rm(file, { force: true });
    }
  };

  return (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== BACKUP_PATH) {
      next(req, res);
      return;
    }
    const requestId = newRequestId();
    backup(req, res, requestId).catch((error: unknown) => {
      if (!isAppError(error)) deps.logger.error('backup failed', { error, request_id: requestId });
      if (res.headersSent) res.destroy();
      else sendError(res, error, requestId);
    });
  };
}
