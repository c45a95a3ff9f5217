import type { Request, Response } from 'express';
import type { ServiceTransport } from '@switchyard/http-kit';
import { sendJson } from '@switchyard/http-kit';
import { SERVER_VERSION } from '@switchyard/contracts';
import { withTimeout } from './with-timeout';

export interface PingDeps {
  readonly transport: ServiceTransport;
  readonly services: readonly string[];
  /** The gateway's own readiness (config loaded, bus up). */
  readonly selfReady: () => Promise<boolean>;
  readonly timeoutMs: number;
}

async function serviceReady(deps: PingDeps, service: string, requestId: string): Promise<boolean> {
  try {
    const res = await withTimeout(deps.transport.send(service, { method: 'GET', path: '/health/ready', headers: { 'x-request-id': requestId } }), deps.timeoutMs);
    return res.status === 200;
  } catch {
    return false;
  }
}

/** The mobile and desktop app version keys the reference's ping carries (Switchyard ships no apps: empty). */
const APP_VERSION_KEYS = ['AndroidLatestVersion', 'AndroidMinVersion', 'DesktopLatestVersion', 'DesktopMinVersion', 'IosLatestVersion', 'IosMinVersion'] as const;

const flag = (req: Request, name: string): boolean => String(req.query[name] ?? '').toLowerCase() === 'true';

/**
 * `GET /api/v4/system/ping`: `{"status":"OK"}` when the gateway and every registered service are ready;
 * otherwise 500 `{"status":"UNHEALTHY","services":{name:"OK"|"UNHEALTHY"}}` (the reference answers 500;
 * with `use_rest_semantics=true` it answers 200 and the status says it). `get_server_status=true` adds what
 * the reference adds (`database_status`, `filestore_status`, `ActiveSearchBackend`, the app version keys)
 * and, as an extension, `server_version`: the reference version Switchyard implements (docs/compatibility.md).
 */
export function ping(deps: PingDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const requestId = req.requestId ?? '';
    const results = await Promise.all([
      deps.selfReady().then((ok) => ['gateway', ok] as const, () => ['gateway', false] as const),
      ...deps.services.map(async (service) => [service, await serviceReady(deps, service, requestId)] as const),
    ]);
    const healthy = results.every(([, ok]) => ok);
    const status = healthy ? 'OK' : 'UNHEALTHY';
    const details = flag(req, 'get_server_status')
      ? {
          ...Object.fromEntries(APP_VERSION_KEYS.map((key) => [key, ''])),
          // Every service checks its own store in its readiness (the files' store too), so both follow it.
          database_status: status,
          filestore_status: status,
          ActiveSearchBackend: 'database',
          server_version: SERVER_VERSION,
        }
      : {};
    const services = healthy ? {} : { services: Object.fromEntries(results.map(([name, ok]) => [name, ok ? 'OK' : 'UNHEALTHY'])) };
    sendJson(res, healthy || flag(req, 'use_rest_semantics') ? 200 : 500, { status, ...details, ...services });
  };
}
