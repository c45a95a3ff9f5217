/**
 * File uploads and thumbnails (not run by default: BENCH_ONLY=files; the upload runs write gigabytes).
 *
 * 1. `POST /api/v4/files` with a 1 MiB raw body (`?channel_id=&filename=`), 16 connections, after warm-up,
 *    BENCH_DURATION_S (default 10): uploads/s, p99, CPU per upload of every process of the target, and the
 *    largest RSS seen (sampled every 100 ms, per process). On a fresh embedded runtime, and on a distributed
 *    one: SWITCHYARD_URL, else one started here on deploy/local's servers (its own DATA_DIR, removed after).
 *    BENCH_FILES_DRIVER=amazons3 switches the target to the S3 store of deploy/local (S3_TEST_* in .env).
 *    Before them: 8 uploads of 64 MiB at once, chunked, then 8 downloads of them at once, and the largest RSS
 *    meanwhile (bodies are streamed both ways; files-large.ts).
 * 2. The image work of one upload of a 12 MP JPEG (4000 × 3000: header check, thumbnail, preview and mini
 *    preview with sharp, from a staged file as uploads do), in this process, one after another
 *    (BENCH_FILES_IMAGES, default 40): p50/p99, and the event loop's delay meanwhile next to the same
 *    measure over an idle stretch of the same length (what the box alone causes): a 1 ms timer's lateness
 *    with the loop thread's own CPU over each interval and GC pauses (loop-stalls.ts: who held the loop), and
 *    perf_hooks.monitorEventLoopDelay's max (the longest interval of its 1 ms timer, period included).
 *    libvips' threads run at posts' default nice (IMAGE_THREAD_NICE); BENCH_IMAGE_THREAD_NICE=0 measures without.
 * Goals (spec): embedded ≥ 200 uploads/s, distributed ≥ 100/s; thumbnail ≤ 150 ms p99, loop never blocked > 5 ms.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { CpuMeter, formatCpuReport } from '../bench-support/cpu';
import { serversConfigured, startDistributedProcess } from '../bench-support/distributed';
import { loadFigures, requireClean, type AutocannonResult } from '../bench-support/load';
import { formatLoopStalls, watchLoopStalls, type LoopStalls } from '../bench-support/loop-stalls';
import { adminToken, externalTarget, must, startEmbeddedProcess, wantsTarget } from '../bench-support/target';
import { distributedProcesses, embeddedProcesses, type TargetProcess } from '../bench-support/target-processes';
import { warmUp } from '../bench-support/warm-up';
import { ImageThreadPriority } from '../../services/posts/src/adapters/images/image-thread-priority';
import { SharpImageProcessor } from '../../services/posts/src/adapters/images/sharp-image-processor';
import { largeDownloads, largeUploads, maxRss } from './files-large';

const requireCjs = createRequire(__filename);
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;

const CONNECTIONS = 16;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const IMAGES = Number(process.env.BENCH_FILES_IMAGES ?? 40);
const BODY = Buffer.alloc(1024 * 1024, 0x5a);
const GOALS = { embedded: 200, distributed: 100, imageP99Ms: 150, loopMaxMs: 5 } as const;

export interface UploadFigure {
  readonly target: string;
  readonly uploadsPerSec: number;
  readonly p99Ms: number;
  readonly cpuAllMs: number;
  readonly maxRssMb: Readonly<Record<string, number>>;
  readonly loadAverage: number;
}

export interface ImageFigure {
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** The largest delay of a 1 ms timer (interval minus period), and its p99. */
  readonly loopMaxMs: number;
  readonly loopP99Ms: number;
  readonly idleLoopMaxMs: number;
  readonly loop: LoopStalls;
  readonly idleLoop: LoopStalls;
  /** monitorEventLoopDelay's max: its timer's longest interval (1 ms period included). */
  readonly histogramMaxMs: number;
  readonly cpuMs: number;
}


async function uploads(label: 'embedded' | 'distributed', url: string, processes: readonly TargetProcess[]): Promise<UploadFigure> {
  const autocannon = requireCjs('autocannon') as Autocannon;
  const token = await adminToken(url);
  if (process.env.BENCH_FILES_DRIVER === 'amazons3') await useS3(url, token);
  const suffix = Math.random().toString(36).slice(2, 10);
  const team = await must(url, 'POST', '/api/v4/teams', { name: `benchfiles-${suffix}`, display_name: `Bench ${suffix}`, type: 'O' }, token, 201);
  const channel = await must(url, 'POST', '/api/v4/channels', { team_id: team.id, name: `files-${suffix}`, display_name: 'Files', type: 'O' }, token, 201);
  const options = {
    url: `${url}/api/v4/files?channel_id=${String(channel.id)}&filename=report.bin`,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    body: BODY,
    connections: CONNECTIONS,
  };
  await warmUp(`POST /api/v4/files 1 MiB [${label}]`, (duration) => autocannon({ ...options, duration }));
  const meter = await CpuMeter.start(processes);
  const { result, max } = await maxRss(processes, () => autocannon({ ...options, duration: DURATION_S }));
  const counted = loadFigures(result);
  const cpu = await meter.finish(counted.ok);
  const load = loadavg()[0] ?? 0;
  process.stdout.write(
    `files POST /api/v4/files 1 MiB [${label}] ${CONNECTIONS} connections, ${result.duration} s: ${counted.okPerSec} uploads/s (${counted.ok}), p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${counted.non2xx} non-2xx, ${counted.errors} errors\n`,
  );
  process.stdout.write(formatCpuReport(cpu));
  process.stdout.write(`  max RSS while uploading (MB): ${Object.entries(max).map(([n, mb]) => `${n} ${mb}`).join(', ')}\n`);
  const goal = GOALS[label];
  process.stdout.write(`  targets [${label}] uploads/s ${counted.okPerSec} ≥ ${goal} ${counted.okPerSec >= goal ? 'pass' : 'FAIL'}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores\n`);
  requireClean(`files uploads [${label}]`, counted);
  return { target: label, uploadsPerSec: counted.okPerSec, p99Ms: result.latency.p99, cpuAllMs: cpu.allMs, maxRssMb: max, loadAverage: load };
}

/** Points the target's FileSettings at deploy/local's S3 server (bucket created if missing by nobody: it must exist). */
async function useS3(url: string, token: string): Promise<void> {
  const endpoint = process.env.S3_TEST_ENDPOINT;
  if (!endpoint) throw new Error('BENCH_FILES_DRIVER=amazons3 needs S3_TEST_ENDPOINT (deploy/local/.env)');
  await must(url, 'PUT', '/api/v4/config/patch', {
    FileSettings: {
      DriverName: 'amazons3',
      AmazonS3Endpoint: endpoint,
      AmazonS3SSL: false,
      AmazonS3Bucket: process.env.BENCH_FILES_BUCKET ?? 'switchyard-bench',
      AmazonS3AccessKeyId: process.env.S3_TEST_ACCESS_KEY ?? '',
      AmazonS3SecretAccessKey: process.env.S3_TEST_SECRET_KEY ?? '',
    },
  }, token, 200);
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** A 12 MP JPEG with content (gradients and noise, ~2-4 MB), written to a file as a staged upload would be. */
async function twelveMegapixelJpeg(dir: string): Promise<string> {
  const { default: sharp } = await import('sharp');
  const width = 4000;
  const height = 3000;
  const raw = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const i = (y * width + x) * 3;
      raw[i] = (x * 255) / width + (seed & 15);
      raw[i + 1] = (y * 255) / height + ((seed >> 4) & 15);
      raw[i + 2] = ((x + y) * 127) / (width + height) + ((seed >> 8) & 15);
    }
  }
  const path = join(dir, 'photo.jpg');
  writeFileSync(path, await sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer());
  return path;
}

async function images(): Promise<ImageFigure> {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-bench-img-'));
  try {
    const path = await twelveMegapixelJpeg(dir);
    const threads = new ImageThreadPriority(process.env.BENCH_IMAGE_THREAD_NICE === undefined ? undefined : Number(process.env.BENCH_IMAGE_THREAD_NICE));
    const processor = new SharpImageProcessor(undefined, threads);
    for (let i = 0; i < 3; i++) await processor.process(path, 'jpg');
    const idle = monitorEventLoopDelay({ resolution: 1 });
    const busy = monitorEventLoopDelay({ resolution: 1 });
    const times: number[] = [];
    busy.enable();
    const stalls = watchLoopStalls(GOALS.loopMaxMs);
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < IMAGES; i++) {
      const t = performance.now();
      const outcome = await processor.process(path, 'jpg');
      times.push(performance.now() - t);
      if (!outcome.ok) throw new Error(`the 12 MP JPEG was refused: ${outcome.detail}`);
    }
    const loop = stalls.stop();
    busy.disable();
    const cpu = process.cpuUsage(cpuBefore);
    const elapsed = performance.now() - started;
    idle.enable();
    const idleStalls = watchLoopStalls(GOALS.loopMaxMs);
    await delay(elapsed);
    const idleLoop = idleStalls.stop();
    idle.disable();
    times.sort((a, b) => a - b);
    const ms = (ns: number): number => Math.round((ns / 1e6) * 10) / 10;
    const figure = {
      p50Ms: Math.round(percentile(times, 50)),
      p99Ms: Math.round(percentile(times, 99)),
      loopMaxMs: loop.maxMs,
      loopP99Ms: loop.p99Ms,
      idleLoopMaxMs: idleLoop.maxMs,
      loop,
      idleLoop,
      histogramMaxMs: ms(busy.max),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000 / IMAGES),
    };
    process.stdout.write(`files 12 MP JPEG (thumbnail + preview + mini preview, from a file), ${IMAGES} one after another, libvips threads at nice ${threads.nice}: p50 ${figure.p50Ms} ms, p99 ${figure.p99Ms} ms, CPU ${figure.cpuMs} ms per image (all threads)\n`);
    process.stdout.write(`  event-loop delay meanwhile (1 ms timer, delay = interval - 1 ms; floor 0-1 ms: libuv's clock counts whole ms): ${formatLoopStalls(loop)}\n`);
    process.stdout.write(`  idle, same length: ${formatLoopStalls(idleLoop)}\n`);
    process.stdout.write(`  monitorEventLoopDelay (1 ms resolution, records intervals): max ${figure.histogramMaxMs} ms busy, ${ms(idle.max)} ms idle\n`);
    process.stdout.write(
      `  targets: p99 ${figure.p99Ms} ≤ ${GOALS.imageP99Ms} ${figure.p99Ms <= GOALS.imageP99Ms ? 'pass' : 'FAIL'}; loop max ${figure.loopMaxMs} ≤ ${GOALS.loopMaxMs} ${figure.loopMaxMs <= GOALS.loopMaxMs ? 'pass' : 'FAIL'}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`,
    );
    return figure;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<{ uploads: UploadFigure[]; image?: ImageFigure } | undefined> {
  if (!(process.env.BENCH_ONLY ?? '').split(',').includes('files')) {
    process.stdout.write('files: skipped (BENCH_ONLY=files runs it; the upload runs write gigabytes)\n');
    return undefined;
  }
  const figures: UploadFigure[] = [];
  const image = process.env.BENCH_FILES_SKIP_IMAGES ? undefined : await images();
  if (wantsTarget('embedded')) {
    const embedded = await startEmbeddedProcess();
    try {
      await delay(2_000);
      if (!process.env.BENCH_FILES_SKIP_LARGE) await largeDownloads('embedded', embedded.url, embeddedProcesses(embedded.pid), await largeUploads('embedded', embedded.url, embeddedProcesses(embedded.pid)));
      figures.push(await uploads('embedded', embedded.url, embeddedProcesses(embedded.pid)));
    } finally {
      await embedded.stop();
    }
  }
  if (wantsTarget('distributed')) {
    const external = externalTarget();
    if (external) figures.push(await uploads('distributed', external, distributedProcesses(external)));
    else if (serversConfigured()) {
      const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-bench-files-'));
      const started = await startDistributedProcess({ DATA_DIR: dataDir });
      try {
        if (!process.env.BENCH_FILES_SKIP_LARGE) await largeDownloads('distributed', started.url, distributedProcesses(started.url), await largeUploads('distributed', started.url, distributedProcesses(started.url)));
        figures.push(await uploads('distributed', started.url, distributedProcesses(started.url)));
      } finally {
        await started.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    } else process.stdout.write('files [distributed]: skipped (no SWITCHYARD_URL and no deploy/local servers)\n');
  }
  return image ? { uploads: figures, image } : { uploads: figures };
}
