/**
 * The performance targets of the spec (/work/shared/spec/README.md "Performance targets"), printed next to
 * each measured figure with pass or FAIL, so a report can quote one line per figure. A target is a goal of
 * the benchmark, never of a unit test.
 */
import type { CpuReport } from './cpu';

export type TargetName = 'embedded' | 'distributed';
export type FigureName = 'hooks' | 'posts' | 'users/me';

interface Targets {
  /** 2xx answers per second, at least. */
  readonly requestsPerSec: number;
  /** p99 latency in ms, at most (only where the spec sets one). */
  readonly p99Ms?: number;
  /** CPU ms per request of every process of the target (Kafka, MongoDB-wire, Redis included), at most. */
  readonly cpuAllMs: number;
}

const TARGETS: Readonly<Record<TargetName, Readonly<Record<FigureName, Targets>>>> = {
  embedded: {
    hooks: { requestsPerSec: 5_500, p99Ms: 20, cpuAllMs: 0.3 },
    posts: { requestsPerSec: 4_000, cpuAllMs: 0.4 },
    'users/me': { requestsPerSec: 15_000, cpuAllMs: 0.1 },
  },
  distributed: {
    hooks: { requestsPerSec: 1_100, cpuAllMs: 3 },
    posts: { requestsPerSec: 800, cpuAllMs: 4 },
    'users/me': { requestsPerSec: 3_000, cpuAllMs: 0.7 },
  },
};

/** The distributed runtime's own processes (without Kafka, MongoDB-wire, Redis) may use half of the CPU target. */
const SWITCHYARD_SHARE = 0.5;

export interface MeasuredFigure {
  readonly requestsPerSec: number;
  readonly p99Ms: number;
  readonly cpu: CpuReport;
}

export interface TargetCheck {
  readonly what: string;
  readonly measured: number;
  readonly target: number;
  /** `min`: the measured value must be at least the target; `max`: at most. */
  readonly bound: 'min' | 'max';
  readonly pass: boolean;
}

const fmt = (value: number, digits: number): string => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/** Each target of the figure against what was measured (a figure that could not be measured fails). */
export function checkTargets(target: TargetName, figure: FigureName, measured: MeasuredFigure): TargetCheck[] {
  const goals = TARGETS[target][figure];
  const check = (what: string, value: number, goal: number, bound: 'min' | 'max'): TargetCheck => ({
    what,
    measured: value,
    target: goal,
    bound,
    pass: Number.isFinite(value) && (bound === 'min' ? value >= goal : value <= goal),
  });
  const checks = [check('2xx/s', measured.requestsPerSec, goals.requestsPerSec, 'min')];
  if (goals.p99Ms !== undefined) checks.push(check('p99 ms', measured.p99Ms, goals.p99Ms, 'max'));
  checks.push(check('CPU ms/request, all processes', measured.cpu.allMs, goals.cpuAllMs, 'max'));
  if (target === 'distributed') checks.push(check("CPU ms/request, Switchyard's own", measured.cpu.switchyardMs, goals.cpuAllMs * SWITCHYARD_SHARE, 'max'));
  return checks;
}

/** One line: `targets [distributed] POST /api/v4/posts: 2xx/s 212 ≥ 800 FAIL; CPU … 3.10 ≤ 4 pass; …`. */
export function formatTargets(target: TargetName, figure: FigureName, route: string, measured: MeasuredFigure): string {
  const checks = checkTargets(target, figure, measured);
  const parts = checks.map((c) => `${c.what} ${fmt(c.measured, c.what === '2xx/s' ? 0 : 2)} ${c.bound === 'min' ? '≥' : '≤'} ${c.target} ${c.pass ? 'pass' : 'FAIL'}`);
  const passed = checks.filter((c) => c.pass).length;
  return `  targets [${target}] ${route}: ${parts.join('; ')} (${passed}/${checks.length} met)\n`;
}
