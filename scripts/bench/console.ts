/**
 * The web console: bundle size (apps/console/dist, raw and gzip) and first-load time in headless Debian
 * Chromium against a fresh embedded runtime (its own process): cold (empty cache) and warm (hashed assets
 * cached) loads of the sign-in page, and sign-in to a rendered channel. Median of BENCH_CONSOLE_RUNS (default 5).
 * Needs `npm run build` (the bundle) and Chromium (scripts/install-chromium.sh).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { ADMIN, adminToken, must, startEmbeddedProcess } from '../bench-support/target';

const RUNS = Number(process.env.BENCH_CONSOLE_RUNS ?? 5);
const DIST = join(__dirname, '..', '..', 'apps', 'console', 'dist');
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export async function run(): Promise<void> {
  if (!existsSync(join(DIST, 'index.html'))) throw new Error('apps/console/dist is missing: run `npm run build`');
  let raw = 0;
  let gzip = 0;
  for (const path of files(DIST)) {
    const bytes = readFileSync(path);
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
    if (path.includes('/assets/')) process.stdout.write(`   ${path.slice(DIST.length + 1)}: ${(bytes.length / 1024).toFixed(1)} KiB, gzip ${(gzipSync(bytes, { level: 9 }).length / 1024).toFixed(1)} KiB\n`);
  }
  process.stdout.write(`   bundle total: ${(raw / 1024).toFixed(1)} KiB, gzip ${(gzip / 1024).toFixed(1)} KiB (the gateway serves it uncompressed)\n`);

  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const server = await startEmbeddedProcess();
  const browser = await chromium.launch({ executablePath, headless: true, args: FLAGS });
  try {
    const token = await adminToken(server.url);
    await must(server.url, 'POST', '/api/v4/teams', { name: 'bench-console', display_name: 'Bench', type: 'O' }, token, 201);
    const cold: number[] = [];
    const warm: number[] = [];
    const signIn: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ baseURL: server.url });
      const page = await context.newPage();
      let t = performance.now();
      await page.goto('/');
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      cold.push(performance.now() - t);
      t = performance.now();
      await page.reload();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      warm.push(performance.now() - t);
      await page.getByLabel('Username or email').fill(ADMIN.username);
      await page.getByLabel('Password').fill(ADMIN.password);
      t = performance.now();
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: '~Town Square' }).waitFor();
      signIn.push(performance.now() - t);
      await context.close();
    }
    const fmt = (v: number[]) => `median ${median(v).toFixed(0)} ms (min ${Math.min(...v).toFixed(0)}, max ${Math.max(...v).toFixed(0)})`;
    process.stdout.write(`   first load, empty cache (goto / until the sign-in form): ${fmt(cold)} over ${RUNS} runs\n`);
    process.stdout.write(`   reload, assets cached: ${fmt(warm)}\n`);
    process.stdout.write(`   sign in until the channel is drawn: ${fmt(signIn)}\n`);
  } finally {
    await browser.close();
    await server.stop();
  }
}
