import { Router } from 'express';
import { PostsInternalPaths, Services } from '@switchyard/contracts';
import { sendJson, serviceOnly } from '@switchyard/http-kit';
import { SECRET_KEYS, SECRET_MASK, type SystemConfig } from '@switchyard/system-config';

type FileSettings = SystemConfig['FileSettings'];

const SECRET_FILE_KEYS = new Set(SECRET_KEYS.filter(([section]) => section === 'FileSettings').map(([, key]) => key));

/**
 * The FileSettings keys posts' environment fixes (`MM_FILESETTINGS_*`), for users-bots' `GET /config`
 * (the reference shows the settings in effect, environment overrides included); secrets go masked.
 */
export function internalFileSettingsRoutes(internalSecret: Parameters<typeof serviceOnly>[0], overrides: Partial<FileSettings>): Router {
  const router = Router();
  const shown: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(overrides)) shown[key] = SECRET_FILE_KEYS.has(key) && value !== '' ? SECRET_MASK : value;
  router.get(PostsInternalPaths.fileSettingsOverrides, serviceOnly(internalSecret, [Services.usersBots]), (_req, res) => {
    sendJson(res, 200, { overrides: shown });
  });
  return router;
}
