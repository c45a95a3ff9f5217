import { Router, type Request, type RequestHandler } from 'express';
import { commonErrors, notFound } from '@switchyard/errors';
import { requireIdentity, sendJson } from '@switchyard/http-kit';
import { hasPermission, Permissions } from '@switchyard/permissions';
import { requireIdParam } from '@switchyard/validation';
import { STATUS_VALUES, type StatusValue } from '../../domain/statuses/status';
import type { Statuses } from '../../domain/statuses/statuses';

/** The most ids one `POST /users/status/ids` reads (bounded work per request). */
export const MAX_STATUS_IDS = 10_000;

const disabled = () => notFound('api.status.user_not_found.app_error', 'Unable to find user status.');

function userIdParam(req: Request): string {
  const value = req.params.user_id;
  if (value === 'me') return requireIdentity(req).userId;
  return requireIdParam(value, 'user_id');
}

/** `GET/PUT /users/{id}/status` and `POST /users/status/ids` (mattermost-wire-3.md §3.1). */
export function statusesRoutes(statuses: Statuses, withBody: readonly RequestHandler[]): Router {
  const router = Router();

  router.post('/api/v4/users/status/ids', ...withBody, async (req, res) => {
    requireIdentity(req);
    const ids: unknown = req.body;
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_STATUS_IDS || !ids.every((id) => typeof id === 'string' && id.length === 26)) {
      throw commonErrors.invalidBodyParam('user_ids');
    }
    if (!statuses.settings().enabled) return sendJson(res, 200, []);
    sendJson(res, 200, await statuses.read(ids as string[]));
  });

  router.get('/api/v4/users/:user_id/status', async (req, res) => {
    requireIdentity(req);
    const userId = userIdParam(req);
    if (!statuses.settings().enabled) throw disabled();
    const [status] = await statuses.read([userId]);
    sendJson(res, 200, status);
  });

  router.put('/api/v4/users/:user_id/status', ...withBody, async (req, res) => {
    const identity = requireIdentity(req);
    const userId = userIdParam(req);
    const body = (typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) ? req.body : {}) as Record<string, unknown>;
    if (body.user_id !== userId) throw commonErrors.invalidBodyParam('user_id');
    if (userId !== identity.userId && !hasPermission(identity.roles, Permissions.editOtherUsers)) {
      throw commonErrors.permissions(identity.userId, Permissions.editOtherUsers);
    }
    const status = body.status;
    if (typeof status !== 'string' || !(STATUS_VALUES as readonly string[]).includes(status)) throw commonErrors.invalidBodyParam('status');
    const dndEndTime = body.dnd_end_time;
    if (dndEndTime !== undefined && dndEndTime !== null && (typeof dndEndTime !== 'number' || !Number.isSafeInteger(dndEndTime) || dndEndTime < 0)) {
      throw commonErrors.invalidBodyParam('dnd_end_time');
    }
    if (!statuses.settings().enabled) throw disabled();
    sendJson(res, 200, await statuses.set(userId, status as StatusValue, typeof dndEndTime === 'number' ? dndEndTime : 0));
  });

  return router;
}

