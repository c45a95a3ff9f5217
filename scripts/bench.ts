/**
 * `npm run bench`: runs every scripts/bench/*.ts module's exported `run()` in turn (alphabetical), each
 * printing its own figures. BENCH_ONLY=name[,name] limits the run to those modules.
 * `npm run bench -- --report` also writes docs/benchmarks.md and its SVG charts from what the modules
 * returned; without SWITCHYARD_URL it starts a distributed target on deploy/local's servers for the run
 * (when they are configured), so the report has both runtimes.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { serversConfigured, startDistributedProcess, type DistributedProcess } from './bench-support/distributed';
import { finishContext, startContext, type ModuleRun } from './bench-support/report/run-record';
import { writeReport } from './bench-support/report/write-report';

interface BenchModule {
  run(): Promise<unknown>;
}

function moduleNames(dir: string): string[] {
  const only = (process.env.BENCH_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => f.replace(/\.ts$/, ''))
    .filter((name) => only.length === 0 || only.includes(name))
    .sort();
}

async function runModule(dir: string, name: string): Promise<ModuleRun> {
  process.stdout.write(`\n== bench ${name}\n`);
  const started = performance.now();
  const seconds = (): number => (performance.now() - started) / 1000;
  try {
    const mod = (await import(join(dir, `${name}.ts`))) as Partial<BenchModule>;
    if (typeof mod.run !== 'function') {
      process.stdout.write(`   (no run() exported, skipped)\n`);
      return { module: name, seconds: 0, figures: undefined };
    }
    return { module: name, figures: await mod.run(), seconds: seconds() };
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`bench ${name} failed: ${message}\n`);
    return { module: name, figures: undefined, seconds: seconds(), error: message };
  }
}

/** For a report: the distributed target, from SWITCHYARD_URL or started here. */
async function distributedTarget(): Promise<{ description: string; started?: DistributedProcess }> {
  if (process.env.SWITCHYARD_URL) return { description: `SWITCHYARD_URL (${process.env.SWITCHYARD_URL})` };
  if (!serversConfigured()) return { description: 'none (no SWITCHYARD_URL, and Kafka/MongoDB/Redis not configured in deploy/local/.env)' };
  const started = await startDistributedProcess();
  process.env.SWITCHYARD_URL = started.url;
  process.stdout.write(`bench: distributed target started for the report at ${started.url}\n`);
  return { description: 'started by the run (apps/launcher, one process per service, on deploy/local\'s Kafka, MongoDB-wire and Redis)', started };
}

async function main(): Promise<void> {
  const report = process.argv.slice(2).includes('--report');
  const dir = join(__dirname, 'bench');
  const context = startContext(`npm run bench${report ? ' -- --report' : ''}`);
  const distributed = report ? await distributedTarget() : undefined;
  const runs: ModuleRun[] = [];
  try {
    for (const name of moduleNames(dir)) runs.push(await runModule(dir, name));
  } finally {
    await distributed?.started?.stop();
  }
  if (report) {
    const path = await writeReport(join(__dirname, '..', 'docs'), finishContext(context, distributed?.description ?? 'none'), runs);
    process.stdout.write(`\nbench: report written to ${path}\n`);
  }
  process.exit(runs.some((r) => r.error) ? 1 : 0);
}

void main();
