/**
 * Idle CPU of the distributed runtime as ADR 0017 measures it: the services' /proc utime+stime over
 * BENCH_IDLE_S seconds (default 20) with no traffic, after 15 s to settle, summed and per 10 s.
 *
 *   node --conditions=source --import tsx scripts/bench-support/idle-cpu.ts
 */
import { loadavg } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { processCpuMs } from './cpu';
import { startDistributedProcess } from './distributed';

const SECONDS = Number(process.env.BENCH_IDLE_S ?? 20);

async function main(): Promise<void> {
  const target = await startDistributedProcess();
  try {
    await delay(15_000);
    const services = Object.entries(target.pids).filter(([name]) => name !== 'launcher');
    const before = services.map(([, pid]) => processCpuMs(pid) ?? 0);
    await delay(SECONDS * 1000);
    const used = services.map(([name, pid], i) => [name, (processCpuMs(pid) ?? 0) - (before[i] ?? 0)] as const);
    const per10s = (ms: number): string => ((ms * 10) / SECONDS).toFixed(0);
    const total = used.reduce((sum, [, ms]) => sum + ms, 0);
    process.stdout.write(`idle CPU per 10 s over ${SECONDS} s: all services ${per10s(total)} ms (${used.map(([name, ms]) => `${name} ${per10s(ms)}`).join(', ')}); load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  } finally {
    await target.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
  process.exit(1);
});
