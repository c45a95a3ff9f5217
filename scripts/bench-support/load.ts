/**
 * autocannon figures that count only successful answers: req/s is 2xx answers per second of the run;
 * every other answer is reported beside it by status. 5xx answers, socket errors and timeouts fail the
 * bench (the product broke under load: no figure); 4xx refusals (a rate limit) are reported, not counted.
 */
export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Seconds the run lasted. */
  duration: number;
  '2xx'?: number;
  statusCodeStats?: Record<string, { count: number }>;
}

export interface LoadFigures {
  /** 2xx answers. */
  readonly ok: number;
  /** 2xx answers per second of the run. */
  readonly okPerSec: number;
  readonly non2xx: number;
  readonly serverErrors: number;
  readonly errors: number;
  readonly statuses: string;
}

export function loadFigures(result: AutocannonResult): LoadFigures {
  const ok = result['2xx'] ?? result.requests.total - result.non2xx;
  const seconds = result.duration > 0 ? result.duration : 1;
  const stats = Object.entries(result.statusCodeStats ?? {});
  const statuses = stats.map(([code, { count }]) => `${code}: ${count}`).join(', ');
  const serverErrors = stats.filter(([code]) => code.startsWith('5')).reduce((n, [, { count }]) => n + count, 0);
  return { ok, okPerSec: Math.round(ok / seconds), non2xx: result.non2xx, serverErrors, errors: result.errors + result.timeouts, statuses };
}

/** Throws (the bench fails) when nothing succeeded, or on any 5xx, socket error or timeout. */
export function requireClean(what: string, figures: LoadFigures): void {
  if (figures.ok === 0 || figures.serverErrors > 0 || figures.errors > 0) {
    throw new Error(`${what}: ${figures.ok} 2xx, ${figures.non2xx} non-2xx (${figures.statuses || 'no status counts'}), ${figures.errors} errors or timeouts: not a clean run, no figure`);
  }
}

/** Polls `check` until it returns true; throws with `what` after `timeoutMs` (a partial run fails loudly). */
export async function drain(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = performance.now();
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not complete after ${Math.round(timeoutMs / 1000)} s (partial run, no figure)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return (performance.now() - started) / 1000;
}
