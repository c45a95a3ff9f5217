/**
 * CPU per request for the benchmarks, read from /proc (Linux): the CPU time (user + system, every thread) of
 * each process of the target over a measured run, divided by the requests that completed with a 2xx, plus
 * the machine's busy time (all CPUs, /proc/stat) per request with and without the load generator (this
 * process). Work the target still does after the load stopped (a queued post, an outbox, an outgoing
 * consumer) is waited for and counted: the meter stops only once the target's own processes are quiet.
 * The processes measured are found by target-processes.ts.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import type { TargetProcess } from './target-processes';

/** Clock ticks per second of /proc times (USER_HZ; 100 on every mainstream Linux build). */
const TICKS_PER_SECOND = 100;
/**
 * The target counts as drained when its own processes, over a window this long, use no more of a CPU than
 * they did while idle before the run (consumers' polls and heartbeats) times 1.25, plus 2 % of a CPU.
 */
const QUIET_WINDOW_MS = 500;
const IDLE_SAMPLE_MS = 1_000;
const MAX_SETTLE_WINDOWS = 15;
const MAX_DRAIN_MS = 60_000;

/** utime + stime of one process in ms, or undefined when it is gone. */
export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return ((utime + stime) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** The machine's busy and total CPU time (ms, all CPUs) from the first line of /proc/stat. */
export function machineCpuMs(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const values = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = values.reduce((sum, v) => sum + v, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: ((total - idle) * 1000) / TICKS_PER_SECOND, total: (total * 1000) / TICKS_PER_SECOND };
}

export interface CpuReport {
  /** Requests the CPU is divided by (2xx only). */
  readonly completed: number;
  /** CPU ms per completed request, by process name (processes that vanished are left out). */
  readonly perProcessMs: Readonly<Record<string, number>>;
  /** Every process of the target, and Switchyard's own (without Kafka, MongoDB-wire, Redis). */
  readonly allMs: number;
  readonly switchyardMs: number;
  /**
   * `allMs` minus what the processes would have used idle over the same time (polls, heartbeats): on a
   * shared, saturated machine throughput drops and that idle share inflates `allMs`; this is the work the
   * requests caused.
   */
  readonly beyondIdleMs: number;
  /** The machine's busy CPU per request, and the same without this process (the load generator). */
  readonly machineMs: number;
  readonly machineWithoutLoadGeneratorMs: number;
  /** Wall time from the end of the load until the target was quiet. */
  readonly drainMs: number;
  /** Share of one CPU the target's own processes used while idle before the run. */
  readonly idleShare: number;
  readonly wallMs: number;
}

interface Snapshot {
  readonly at: number;
  readonly byPid: Map<number, number>;
  readonly machine: { busy: number; total: number };
  readonly self: number;
}

function snapshot(processes: readonly TargetProcess[]): Snapshot {
  const byPid = new Map<number, number>();
  for (const p of processes) {
    const ms = processCpuMs(p.pid);
    if (ms !== undefined) byPid.set(p.pid, ms);
  }
  return { at: Date.now(), byPid, machine: machineCpuMs(), self: processCpuMs(process.pid) ?? 0 };
}

function ownCpu(processes: readonly TargetProcess[], snap: Snapshot): number {
  return processes.filter((p) => !p.infrastructure).reduce((sum, p) => sum + (snap.byPid.get(p.pid) ?? 0), 0);
}

/** Starts counting now; `finish` waits for the target to drain, then divides by the completed requests. */
export class CpuMeter {
  private constructor(
    private readonly processes: readonly TargetProcess[],
    private readonly start: Snapshot,
    /** Share of one CPU the target's own processes use while idle. */
    private readonly idleShare: number,
    /** The same per process. */
    private readonly idleByPid: ReadonlyMap<number, number>,
  ) {}

  /**
   * Waits until the target settled (two windows in a row within 2 % of a CPU of each other, so a warm-up's
   * backlog is not taken for idle), samples it idle (the drain criterion and the idle figures), then starts.
   */
  public static async start(processes: readonly TargetProcess[]): Promise<CpuMeter> {
    let before = snapshot(processes);
    let start = before;
    let previousShare = Number.POSITIVE_INFINITY;
    for (let i = 0; i < MAX_SETTLE_WINDOWS; i += 1) {
      await delay(IDLE_SAMPLE_MS);
      start = snapshot(processes);
      const share = (ownCpu(processes, start) - ownCpu(processes, before)) / (start.at - before.at);
      if (Math.abs(share - previousShare) <= 0.02) break;
      previousShare = share;
      if (i < MAX_SETTLE_WINDOWS - 1) before = start;
    }
    const window = start.at - before.at;
    const idleByPid = new Map<number, number>();
    for (const p of processes) {
      const a = before.byPid.get(p.pid);
      const b = start.byPid.get(p.pid);
      if (a !== undefined && b !== undefined) idleByPid.set(p.pid, (b - a) / window);
    }
    return new CpuMeter(processes, start, (ownCpu(processes, start) - ownCpu(processes, before)) / window, idleByPid);
  }

  /**
   * Stops counting once the work is done: `done` (when given) until it answers true, e.g. every accepted
   * hook's post exists; then until the target's own processes are back to their idle CPU.
   */
  public async finish(completed: number, done?: () => Promise<boolean>): Promise<CpuReport> {
    const loadEnded = Date.now();
    while (done && Date.now() - loadEnded < MAX_DRAIN_MS && !(await done())) await delay(100);
    let previous = snapshot(this.processes);
    while (Date.now() - loadEnded < MAX_DRAIN_MS) {
      await delay(QUIET_WINDOW_MS);
      const next = snapshot(this.processes);
      const used = ownCpu(this.processes, next) - ownCpu(this.processes, previous);
      const window = next.at - previous.at;
      previous = next;
      if (used <= (this.idleShare * 1.25 + 0.02) * window) break;
    }
    const end = previous;
    const per = (ms: number): number => (completed > 0 ? ms / completed : Number.NaN);
    const perProcessMs: Record<string, number> = {};
    let all = 0;
    let own = 0;
    let idle = 0;
    const wall = end.at - this.start.at;
    for (const p of this.processes) {
      const before = this.start.byPid.get(p.pid);
      const after = end.byPid.get(p.pid);
      if (before === undefined || after === undefined) continue;
      const used = after - before;
      perProcessMs[p.name] = (perProcessMs[p.name] ?? 0) + per(used);
      all += used;
      if (!p.infrastructure) own += used;
      idle += Math.min(used, (this.idleByPid.get(p.pid) ?? 0) * wall);
    }
    const machine = end.machine.busy - this.start.machine.busy;
    const self = end.self - this.start.self;
    return {
      completed,
      perProcessMs,
      allMs: per(all),
      beyondIdleMs: per(all - idle),
      switchyardMs: per(own),
      machineMs: per(machine),
      machineWithoutLoadGeneratorMs: per(machine - self),
      drainMs: end.at - loadEnded,
      idleShare: this.idleShare,
      wallMs: wall,
    };
  }
}

const fmt = (ms: number): string => (Number.isFinite(ms) ? ms.toFixed(2) : 'n/a');

/** One line per figure, e.g. `CPU/request: 2.91 ms all processes (gateway 0.40, posts 0.95, …, kafka 0.61), …`. */
export function formatCpuReport(report: CpuReport): string {
  const parts = Object.entries(report.perProcessMs)
    .sort(([, a], [, b]) => b - a)
    .map(([name, ms]) => `${name} ${fmt(ms)}`)
    .join(', ');
  return (
    `  CPU ms/request over ${report.completed} 2xx requests: ${fmt(report.allMs)} all target processes (${parts}); ` +
    `Switchyard's own ${fmt(report.switchyardMs)}; beyond idle ${fmt(report.beyondIdleMs)}; machine busy ${fmt(report.machineMs)}, ${fmt(report.machineWithoutLoadGeneratorMs)} without the load generator; ` +
    `drained ${(report.drainMs / 1000).toFixed(1)} s after the load; idle before the run ${(report.idleShare * 100).toFixed(0)} % of a CPU\n`
  );
}
