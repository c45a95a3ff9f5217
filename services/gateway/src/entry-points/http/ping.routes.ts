import type { Request, Response } from 'express';
import type { ServiceTransport } from '@switchyard/http-kit';
import { sendJson } from '@switchyard/http-kit';
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

/**
 * `GET /api/v4/system/ping`: `{"status":"OK"}` when the gateway and every registered service are ready;
 * otherwise 500 `{"status":"UNHEALTHY","services":{name:"OK"|"UNHEALTHY"}}` (the reference answers 500).
 */
export function ping(deps: PingDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const requestId = req.requestId ?? '';
    const results = await Promise.all([
      deps.selfReady().then((ok) => ['gateway', ok] as const, () => ['gateway', false] as const),
      ...deps.services.map(async (service) => [service, await serviceReady(deps, service, requestId)] as const),
    ]);
    if (results.every(([, ok]) => ok)) {
      sendJson(res, 200, { status: 'OK' });
      return;
    }
    const services = Object.fromEntries(results.map(([name, ok]) => [name, ok ? 'OK' : 'UNHEALTHY']));
    sendJson(res, 500, { status: 'UNHEALTHY', services });
  };
}
