import type { Express, RequestHandler } from 'express';
import { WEBSOCKET_PATHS } from '../upgrade/websocket-upgrade';

/** Mount path of the config write barrier. */
export const CONFIG_PATH = '/api/v4/config';
/** Where the service chain is mounted: every route-table pattern starts with one of these. */
export const SERVICE_PREFIXES = ['/api/v4', '/hooks', '/files'] as const;
export const PING_PATH = '/api/v4/system/ping';

/** What a stage does with a request that the route table gives to a service running here. */
export type ServiceRequests =
  /** It runs for them: mounted on the router and, in this order, in the shortcut past the router. */
  | 'run'
  /** It never takes one: its own paths are no service's, or it serves only paths no service has. */
  | 'never'
  /** Requests under its path are left to the router (the shortcut does not take them). */
  | 'router';

export interface Stage {
  readonly name: string;
  /** `get`: exactly these paths; otherwise `use` under `path` (every path when absent). */
  readonly method?: 'get';
  readonly path?: readonly string[];
  readonly serviceRequests: ServiceRequests;
}

/**
 * The gateway's middlewares in the order the router runs them (ADR 0006 for the first three, ADR 0020 for the
 * shortcut). Both the router's mounts and the shortcut's chain are derived from this list: a stage added
 * here must say what it does with service requests, and the composition root must give it its handlers.
 */
export const GATEWAY_PIPELINE = [
  { name: 'standardHeaders', serviceRequests: 'run' },
  { name: 'rateLimit', serviceRequests: 'run' },
  { name: 'websocketGet', method: 'get', path: [...WEBSOCKET_PATHS], serviceRequests: 'never' },
  { name: 'canonicalPath', serviceRequests: 'run' },
  { name: 'edgeRoutes', serviceRequests: 'never' },
  { name: 'ping', method: 'get', path: [PING_PATH], serviceRequests: 'never' },
  { name: 'configWriteBarrier', path: [CONFIG_PATH], serviceRequests: 'router' },
  { name: 'toService', path: [...SERVICE_PREFIXES], serviceRequests: 'run' },
  { name: 'consoleStatic', serviceRequests: 'never' },
] as const satisfies readonly Stage[];

export type StageName = (typeof GATEWAY_PIPELINE)[number]['name'];
/** Every stage's handlers; `undefined` leaves the stage out of this gateway (no realtime, no console, ...). */
export type StageHandlers = Readonly<Record<StageName, readonly RequestHandler[] | undefined>>;

/** Mounts the stages on the app's router, in order. */
export function mountPipeline(app: Express, stages: readonly Stage[], handlers: Readonly<Record<string, readonly RequestHandler[] | undefined>>): void {
  for (const stage of stages) {
    const chain = handlers[stage.name];
    if (chain === undefined || chain.length === 0) continue;
    if (stage.method === 'get') app.get([...(stage.path ?? [])], ...chain);
    else if (stage.path === undefined) app.use([...chain]);
    else app.use([...stage.path], [...chain]);
  }
}

/** The shortcut's chain: the handlers of the stages that run for service requests, in the router's order. */
export function shortcutChain(stages: readonly Stage[], handlers: Readonly<Record<string, readonly RequestHandler[] | undefined>>): RequestHandler[] {
  return stages.filter((stage) => stage.serviceRequests === 'run').flatMap((stage) => [...(handlers[stage.name] ?? [])]);
}

/** Lower-cased mount paths whose requests stay on the router (express matches paths case-insensitively). */
export function routerOnlyPaths(stages: readonly Stage[]): string[] {
  return stages.filter((stage) => stage.serviceRequests === 'router').flatMap((stage) => (stage.path ?? []).map((p) => p.toLowerCase()));
}
