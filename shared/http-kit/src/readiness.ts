import type { HealthReport } from './create-http-app';

/** One readiness check: true when ready; a rejected or thrown check counts as not ready. */
export type ReadinessCheck = () => boolean | Promise<boolean>;

/**
 * `/health/ready` from named checks (`{ started: () => started, bus: () => bus.health(), config: () => follower.loaded }`):
 * ready when every check holds; the report names each one.
 */
export function readiness(checks: Readonly<Record<string, ReadinessCheck>>): () => Promise<HealthReport> {
  const entries = Object.entries(checks);
  return async () => {
    const results = await Promise.all(entries.map(async ([, check]) => {
      try {
        return await check();
      } catch {
        return false;
      }
    }));
    const report: Record<string, boolean> = {};
    entries.forEach(([name], i) => {
      report[name] = results[i] === true;
    });
    return { ok: results.every((r) => r === true), checks: report };
  };
}
