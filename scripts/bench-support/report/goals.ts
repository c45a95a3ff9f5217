/**
 * The spec's performance targets (/work/shared/spec/README.md "Performance targets"; the reference's own
 * figures on this box are there too) checked against the figures of this run. A goal the run did not
 * measure is listed as "not measured", never as met.
 */
import { deliveryCpuFigures, latencyFigures, requestFigures, scaleOutPoints } from './figures';
import type { ModuleRun } from './run-record';

export interface GoalCheck {
  readonly figure: string;
  readonly target: string;
  readonly goal: string;
  readonly measured?: string;
  readonly met?: boolean;
}

type Bound = 'min' | 'max';

function check(figure: string, target: string, what: string, bound: Bound, goal: number, value: number | undefined, unit: string): GoalCheck {
  const goalText = `${what} ${bound === 'min' ? '≥' : '≤'} ${goal.toLocaleString('en')}${unit}`;
  if (value === undefined) return { figure, target, goal: goalText };
  const shown = value >= 100 ? Math.round(value).toLocaleString('en') : value.toFixed(2);
  return { figure, target, goal: goalText, measured: `${shown}${unit}`, met: bound === 'min' ? value >= goal : value <= goal };
}

const mean = (values: readonly number[]): number | undefined => (values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length);

export function goalChecks(runs: readonly ModuleRun[]): GoalCheck[] {
  const requests = requestFigures(runs);
  const request = (figure: string, target: string) => requests.find((f) => f.figure === figure && f.target === target);
  const callback = (target: string) => latencyFigures(runs).find((f) => f.figure === 'post → outgoing callback' && f.target === target);
  const points = scaleOutPoints(runs);
  const deliveryCpu = (target: string) => deliveryCpuFigures(runs).find((f) => f.target === target)?.cpuAllMs;
  const rate = (n: number): number | undefined => mean(points.filter((p) => p.dispatchers === n).map((p) => p.deliveriesPerSecond));
  const one = rate(1);
  const two = rate(2);
  const hooksE = request('POST /hooks/{key}', 'embedded');
  const hooksD = request('POST /hooks/{key}', 'distributed');
  const postsE = request('POST /api/v4/posts', 'embedded');
  const postsD = request('POST /api/v4/posts', 'distributed');
  const cursors = runs.find((r) => r.module === 'event-cursors')?.figures as
    | { catchUpMs?: number; liveUs?: number; liveCursorUs?: number; socketLiveUs?: number; socketLiveCursorUs?: number; socketLiveCursorPairedPct?: number }
    | undefined;
  const extra = (without: number | undefined, withCursors: number | undefined): number | undefined =>
    without !== undefined && withCursors !== undefined && without > 0 ? ((withCursors - without) / without) * 100 : undefined;
  return [
    check('POST /hooks/{key}', 'embedded', 'req/s', 'min', 5_500, hooksE?.requestsPerSec, ''),
    check('POST /hooks/{key}', 'embedded', 'p99', 'max', 20, hooksE?.p99Ms, ' ms'),
    check('POST /hooks/{key}', 'distributed', 'req/s', 'min', 2_000, hooksD?.requestsPerSec, ''),
    check('POST /hooks/{key}', 'distributed', 'CPU per request, all processes', 'max', 0.45, hooksD?.cpuAllMs, ' ms'),
    check('POST /api/v4/posts', 'embedded', 'req/s', 'min', 4_000, postsE?.requestsPerSec, ''),
    check('POST /api/v4/posts', 'distributed', 'req/s', 'min', 2_000, postsD?.requestsPerSec, ''),
    check('POST /api/v4/posts', 'distributed', 'CPU per request, all processes', 'max', 0.45, postsD?.cpuAllMs, ' ms'),
    check('GET /api/v4/users/me', 'embedded', 'req/s', 'min', 25_000, request('GET /api/v4/users/me', 'embedded')?.requestsPerSec, ''),
    check('GET /api/v4/users/me', 'distributed', 'req/s', 'min', 25_000, request('GET /api/v4/users/me', 'distributed')?.requestsPerSec, ''),
    check('post → outgoing callback, one at a time', 'embedded', 'p99', 'max', 5, callback('embedded')?.p99Ms, ' ms'),
    check('post → outgoing callback, one at a time', 'distributed', 'p99', 'max', 15, callback('distributed')?.p99Ms, ' ms'),
    check('CPU per outgoing delivery (outgoing bench, all processes)', 'embedded', 'CPU', 'max', 0.3, deliveryCpu('embedded'), ' ms'),
    check('CPU per outgoing delivery (outgoing bench, all processes incl. Kafka/MongoDB/Redis)', 'distributed', 'CPU', 'max', 0.5, deliveryCpu('distributed'), ' ms'),
    check('CPU per outgoing delivery (dispatcher processes, scale-out bench)', 'distributed', 'CPU', 'max', 0.5, mean(points.filter((p) => p.dispatchers === 1).map((p) => p.cpuMsPerDelivery)), ' ms'),
    check('one → two dispatchers', 'distributed', 'speed-up', 'min', 1.8, one && two ? two / one : undefined, '×'),
    check('bot offline 1 h catches up (in process)', 'embedded', 'time', 'max', 2_000, cursors?.catchUpMs, ' ms'),
    check('resume adds CPU per live event (realtime, 100 WebSockets)', 'embedded', 'extra CPU', 'max', 5, cursors?.socketLiveCursorPairedPct ?? extra(cursors?.socketLiveUs, cursors?.socketLiveCursorUs), ' %'),
    check('resume adds CPU per live delivery (delivery loop only, null sockets)', 'embedded', 'extra CPU', 'max', 5, extra(cursors?.liveUs, cursors?.liveCursorUs), ' %'),
  ];
}
