import type { NextFunction, Request, Response } from 'express';
import type { LiveConfig } from '@switchyard/live-config';
import { gatewayLocals } from './gateway-locals';

export interface ConfigWriteBarrierOptions {
  readonly liveConfig: LiveConfig;
  /** Longest wait for the config.updated event before answering anyway. */
  readonly timeoutMs: number;
  /** Extra time after this gateway applied it, for the other consumers of the same message. */
  readonly settleMs: number;
}

const WRITES = new Set(['PUT', 'POST', 'PATCH']);

/**
 * Read-your-writes for the system config across the distributed runtime: a successful config write is
 * answered only once the resulting config.updated event reached this gateway (every service consumes the
 * same single-partition message at about the same moment), so the client's next request already meets
 * the new settings. Bounded: after `timeoutMs` the answer goes anyway (the config still converges).
 */
export function configWriteBarrier(options: ConfigWriteBarrierOptions) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (WRITES.has(req.method)) {
      const applied = options.liveConfig.nextApply(options.timeoutMs);
      gatewayLocals(res).beforeSuccess = async () => {
        if ((await applied) && options.settleMs > 0) await new Promise((r) => setTimeout(r, options.settleMs));
      };
    }
    next();
  };
}
