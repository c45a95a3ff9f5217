import { closeSync, openSync, readSync } from 'node:fs';
import { PerformanceObserver, constants } from 'node:perf_hooks';

/**
 * The event loop's stalls in this process, finer than monitorEventLoopDelay and attributed. A 1 ms interval
 * timer stamps every tick with the wall clock (hrtime) and the loop thread's own CPU time (Linux:
 * `se.sum_exec_runtime` of /proc/thread-self/sched, µs). A tick's delay is the interval since the previous
 * tick minus the 1 ms period (monitorEventLoopDelay records the interval itself, period included). libuv's
 * loop clock counts whole ms, so an idle loop shows delays of 0-1 ms: that is the floor of this method.
 * For each delay the thread's own run time over the interval says who held the loop: the thread itself
 * (JavaScript, native calls, GC pauses) or nobody (the thread waited for a CPU: preempted by other threads
 * of this process or of the box). GC pauses on the thread are counted from perf_hooks' gc entries.
 */
export interface LoopStalls {
  readonly ticks: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly p999Ms: number;
  readonly maxMs: number;
  /** Ticks whose delay was over `overMs`. */
  readonly over: number;
  readonly overMs: number;
  /** The loop thread's own CPU over the interval of the largest delay (undefined off Linux). */
  readonly maxStallRanMs: number | undefined;
  /** The most CPU the loop thread used between two ticks (its longest busy stretch, at most). */
  readonly maxRanMs: number | undefined;
  readonly gcPauses: number;
  readonly gcMaxMs: number;
  readonly gcMajor: number;
}

const SCHED = /se\.sum_exec_runtime\s*:\s*([\d.]+)/;

/** The calling thread's CPU time in ns (one pread of its sched file), or undefined when not on Linux. */
function threadCpuReader(): { read(): number | undefined; close(): void } {
  let fd: number | undefined;
  try {
    fd = openSync('/proc/thread-self/sched', 'r');
  } catch {
    return { read: () => undefined, close: () => undefined };
  }
  const buffer = Buffer.alloc(8192);
  return {
    read: () => {
      if (fd === undefined) return undefined;
      const n = readSync(fd, buffer, 0, buffer.length, 0);
      const ms = SCHED.exec(buffer.toString('latin1', 0, n))?.[1];
      return ms === undefined ? undefined : Math.round(Number(ms) * 1e6);
    },
    close: () => {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

const PERIOD_NS = 1_000_000;
const round = (ns: number): number => Math.round(ns / 1e4) / 100;

export function watchLoopStalls(overMs = 5): { stop(): LoopStalls } {
  const cpu = threadCpuReader();
  const delays: number[] = [];
  let maxRan: number | undefined;
  let worst = { delay: -1, ran: undefined as number | undefined };
  let wall = process.hrtime.bigint();
  let ran = cpu.read();
  const timer = setInterval(() => {
    const nowWall = process.hrtime.bigint();
    const nowRan = cpu.read();
    const delay = Math.max(0, Number(nowWall - wall) - PERIOD_NS);
    const used = nowRan !== undefined && ran !== undefined ? nowRan - ran : undefined;
    delays.push(delay);
    if (used !== undefined) maxRan = Math.max(maxRan ?? 0, used);
    if (delay > worst.delay) worst = { delay, ran: used };
    wall = nowWall;
    ran = nowRan;
  }, 1);
  let gcPauses = 0;
  let gcMax = 0;
  let gcMajor = 0;
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcPauses++;
      gcMax = Math.max(gcMax, entry.duration);
      if ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) gcMajor++;
    }
  });
  gc.observe({ entryTypes: ['gc'] });
  return {
    stop: () => {
      clearInterval(timer);
      gc.disconnect();
      cpu.close();
      const sorted = [...delays].sort((a, b) => a - b);
      const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
      return {
        ticks: delays.length,
        p50Ms: round(at(50)),
        p99Ms: round(at(99)),
        p999Ms: round(at(99.9)),
        maxMs: round(sorted[sorted.length - 1] ?? 0),
        over: delays.filter((d) => d > overMs * 1e6).length,
        overMs,
        maxStallRanMs: worst.ran === undefined ? undefined : round(worst.ran),
        maxRanMs: maxRan === undefined ? undefined : round(maxRan),
        gcPauses,
        gcMaxMs: Math.round(gcMax * 100) / 100,
        gcMajor,
      };
    },
  };
}

/** One line: the delays' percentiles, the ticks over the goal, who held the loop in the worst one, GC pauses. */
export function formatLoopStalls(s: LoopStalls): string {
  const attribution = s.maxStallRanMs === undefined ? '' : `, its thread ran ${s.maxStallRanMs} ms of it (most it ran between two ticks: ${s.maxRanMs} ms)`;
  return `p50 ${s.p50Ms}, p99 ${s.p99Ms}, p99.9 ${s.p999Ms}, max ${s.maxMs} ms over ${s.ticks} ticks; ${s.over} over ${s.overMs} ms${attribution}; GC pauses ${s.gcPauses} (${s.gcMajor} mark-compact, longest ${s.gcMaxMs} ms)`;
}
