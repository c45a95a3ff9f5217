/**
 * `npm run bench`: runs every scripts/bench/*.ts module's exported `run()` in turn (alphabetical), each
 * printing its own figures. BENCH_ONLY=name[,name] limits the run to those modules.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

interface BenchModule {
  run(): Promise<unknown>;
}

async function main(): Promise<void> {
  const dir = join(__dirname, 'bench');
  const only = (process.env.BENCH_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => f.replace(/\.ts$/, ''))
    .filter((name) => only.length === 0 || only.includes(name))
    .sort();
  let failed = false;
  for (const name of names) {
    process.stdout.write(`\n== bench ${name}\n`);
    try {
      const mod = (await import(join(dir, `${name}.ts`))) as Partial<BenchModule>;
      if (typeof mod.run !== 'function') {
        process.stdout.write(`   (no run() exported, skipped)\n`);
        continue;
      }
      await mod.run();
    } catch (error) {
      failed = true;
      process.stderr.write(`bench ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
  }
  process.exit(failed ? 1 : 0);
}

void main();
