/**
 * Warm-up before a measured run, as the spec measures its targets ("after warm-up"): load in steps of
 * BENCH_WARMUP_STEP_S (default 4 s) until two steps in a row are within 10 % of each other in 2xx/s (a drop
 * counts as noise, not steadiness), or BENCH_WARMUP_MAX_S (default 32 s) of load have passed. A freshly
 * started target climbs for 20-30 s (V8's optimising compiler in every service, the brokers' JIT, caches
 * and batch sizes settling): on the distributed runtime the first 2 s after start ran at about half the
 * steady rate with twice the CPU per request, which no user of a running server sees.
 *
 * Each step's figures are printed, so how the target warmed is part of the output.
 */
import { loadFigures, requireClean, type AutocannonResult, type LoadFigures } from './load';

const STEP_S = Number(process.env.BENCH_WARMUP_STEP_S ?? 4);
const MAX_S = Number(process.env.BENCH_WARMUP_MAX_S ?? 32);
/** Two steps in a row whose 2xx/s differ by at most this share of the earlier one: steady. */
const STEADY_WITHIN = 0.1;

export interface WarmUp {
  /** Every step's figures, in order. */
  readonly steps: readonly LoadFigures[];
  /** The last step: the steady rate the measured run is sized from. */
  readonly last: LoadFigures;
  /** 2xx answers over all steps. */
  readonly ok: number;
  /** False when BENCH_WARMUP_MAX_S ran out while throughput still climbed. */
  readonly steady: boolean;
}

/** True once the last two steps' 2xx/s are within 10 % of each other. */
export function isSteady(rates: readonly number[]): boolean {
  if (rates.length < 2) return false;
  const last = rates[rates.length - 1] ?? 0;
  const before = rates[rates.length - 2] ?? 0;
  return before > 0 && Math.abs(last - before) <= before * STEADY_WITHIN;
}

/** Runs `blast(seconds)` in steps until steady; every step must be clean (no 5xx, errors or timeouts). */
export async function warmUp(what: string, blast: (durationS: number) => Promise<AutocannonResult>): Promise<WarmUp> {
  const steps: LoadFigures[] = [];
  let spentS = 0;
  do {
    const figures = loadFigures(await blast(STEP_S));
    requireClean(`${what} warm-up`, figures);
    steps.push(figures);
    spentS += STEP_S;
  } while (!isSteady(steps.map((s) => s.okPerSec)) && spentS + STEP_S <= MAX_S);
  const rates = steps.map((s) => s.okPerSec);
  const steady = isSteady(rates);
  const last = steps[steps.length - 1] as LoadFigures;
  process.stdout.write(`  warm-up ${what}: ${steps.length} steps of ${STEP_S} s, 2xx/s ${rates.join(' → ')}${steady ? ' (steady)' : ` (still climbing after ${MAX_S} s)`}\n`);
  return { steps, last, ok: steps.reduce((n, s) => n + s.ok, 0), steady };
}
