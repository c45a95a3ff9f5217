import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { latencyFigures, requestFigures, scaleOutPoints, tableRows } from './figures';
import { goalChecks } from './goals';
import type { ModuleRun, RunContext } from './run-record';
import { writeReport } from './write-report';

const runs: ModuleRun[] = [
  {
    module: 'api',
    seconds: 30,
    figures: [
      { target: 'embedded', route: 'POST /api/v4/posts', requestsPerSec: 4_200, p50Ms: 6, p99Ms: 19, non2xx: 0, cpuAllMs: 0.31, cpuSwitchyardMs: 0.31 },
      { target: 'distributed', route: 'POST /api/v4/posts', requestsPerSec: 900, p50Ms: 30, p99Ms: 80, non2xx: 0, cpuAllMs: 0.8, cpuSwitchyardMs: 0.5 },
    ],
  },
  { module: 'incoming-hooks', seconds: 20, figures: [{ target: 'embedded', requestsPerSec: 3_100, storedPerSec: 3_000, p50Ms: 8, p99Ms: 25, accepted: 31_000, duplicates: 0, cpuAllMs: 0.4, cpuSwitchyardMs: 0.4 }] },
  { module: 'outgoing', seconds: 10, figures: [{ target: 'distributed', latencyP50Ms: 9, latencyP99Ms: 20, deliveriesPerSecond: 500, duplicates: 0, cpuAllMsPerDelivery: 0.9 }, { target: 'embedded', latencyP50Ms: 2.1, latencyP99Ms: 4.2, deliveriesPerSecond: 800, duplicates: 0, cpuAllMsPerDelivery: 0.25 }] },
  {
    module: 'scale-out',
    seconds: 90,
    figures: [
      { dispatchers: 1, deliveries: 900, seconds: 3, deliveriesPerSecond: 300, duplicates: 0, perDispatcher: [900], cpuMsPerDelivery: 0.6, load1: 2 },
      { dispatchers: 2, deliveries: 900, seconds: 1.6, deliveriesPerSecond: 570, duplicates: 0, perDispatcher: [450, 450], cpuMsPerDelivery: 0.62, load1: 2 },
    ],
  },
  { module: 'hook-matching', seconds: 4, figures: { postedUs: 3.2, reactionUs: 0.7 } },
  { module: 'search', seconds: 1, figures: undefined, error: 'Error: no posts\n    at x' },
];

const context: RunContext = {
  startedAt: '2026-11-27T10:00:00.000Z',
  finishedAt: '2026-11-27T10:05:00.000Z',
  commit: 'abc1234',
  command: 'npm run bench -- --report',
  settings: { BENCH_DURATION_S: '5' },
  machine: { cpu: 'Test CPU', cores: 2, memoryGb: 4, os: 'Linux', node: 'v20.0.0' },
  loadBefore: 0.5,
  loadAfter: 1.5,
  distributed: 'started by the run',
};

describe('bench report', () => {
  it('reads request, latency and scale-out figures from what the modules returned, and skips shapes it does not know', () => {
    assert.deepEqual(
      requestFigures(runs).map((f) => [f.figure, f.target, f.requestsPerSec, f.cpuAllMs]),
      [
        ['POST /api/v4/posts', 'embedded', 4_200, 0.31],
        ['POST /api/v4/posts', 'distributed', 900, 0.8],
        ['POST /hooks/{key}', 'embedded', 3_100, 0.4],
      ],
    );
    assert.deepEqual(latencyFigures(runs).at(-1), { figure: 'post → outgoing callback', target: 'embedded', p50Ms: 2.1, p99Ms: 4.2 });
    assert.deepEqual(scaleOutPoints(runs).map((p) => p.dispatchers), [1, 2]);
    assert.deepEqual(requestFigures([{ module: 'api', seconds: 1, figures: [{ target: 'embedded' }, 'x', null] }]), []);
  });

  it('flattens figures into table rows: nested objects as a.b, lists joined, decimals rounded', () => {
    assert.deepEqual(tableRows({ a: 1.234, b: { c: 'x' }, d: [1, 2] }), [{ a: '1.23', 'b.c': 'x', d: '1 / 2' }]);
    assert.deepEqual(tableRows(undefined), []);
  });

  it('checks the spec goals: met, missed, and not measured (never counted as met)', () => {
    const goals = goalChecks(runs);
    const find = (figure: string, target: string, goal: string) => goals.find((g) => g.figure === figure && g.target === target && g.goal.startsWith(goal));
    assert.equal(find('POST /api/v4/posts', 'embedded', 'req/s')?.met, true);
    assert.equal(find('POST /api/v4/posts', 'distributed', 'CPU')?.met, false);
    assert.equal(find('POST /hooks/{key}', 'embedded', 'p99')?.met, false);
    assert.equal(find('post → outgoing callback, one at a time', 'embedded', 'p99')?.met, true);
    assert.equal(find('one → two dispatchers', 'distributed', 'speed-up')?.met, true);
    assert.equal(find('CPU per outgoing delivery (outgoing bench, all processes)', 'embedded', 'CPU')?.met, true);
    assert.equal(find('CPU per outgoing delivery (outgoing bench, all processes incl. Kafka/MongoDB/Redis)', 'distributed', 'CPU')?.measured, '0.90 ms');
    const unmeasured = find('GET /api/v4/users/me', 'embedded', 'req/s');
    assert.equal(unmeasured?.met, undefined);
    assert.equal(unmeasured?.measured, undefined);
  });

  it('writes the Markdown and an SVG per chart with figures, and removes a stale chart the run has no figures for', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
    try {
      mkdirSync(join(dir, 'benchmarks'));
      writeFileSync(join(dir, 'benchmarks', 'scale-out.svg'), 'stale');
      await writeReport(dir, context, runs.filter((r) => r.module !== 'scale-out'));
      const markdown = readFileSync(join(dir, 'benchmarks.md'), 'utf8');
      assert.match(markdown, /commit `abc1234`/);
      assert.match(markdown, /\| POST \/api\/v4\/posts \| distributed \| CPU per request, all processes ≤ 0\.45 ms \| 0\.80 ms \| \*\*no\*\* \|/);
      assert.match(markdown, /!\[Throughput by figure\]\(benchmarks\/throughput\.svg\)/);
      assert.match(markdown, /### search \(1 s\)\n\nFailed: `Error: no posts`/);
      assert.match(markdown, /\| postedUs \| reactionUs \|/);
      assert.doesNotMatch(markdown, /scale-out\.svg/);
      assert.equal(existsSync(join(dir, 'benchmarks', 'scale-out.svg')), false);
      const throughput = readFileSync(join(dir, 'benchmarks', 'throughput.svg'), 'utf8');
      assert.match(throughput, /^<svg /);
      assert.match(throughput, /POST \/hooks\/\{key\}/);
      assert.match(readFileSync(join(dir, 'benchmarks', 'cpu-per-request.svg'), 'utf8'), /Kafka, MongoDB, Redis/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
