/**
 * Hook transforms (spec "Hook transform"), in process, no I/O:
 * 1. Extra CPU per hook of a GitHub push through the `github` template: the transform step of
 *    `POST /hooks/{key}` (body parse, event, filters, template evaluation, the result read as a hook body)
 *    minus decoding the Slack-style body it yields, per request (process.cpuUsage over many requests).
 *    The payload is templates/fixtures/github/push.json (the vendor's sample, abridged: ~3.5 KB).
 * 2. Hostile own expressions (run in the worker pool): time until each is stopped, and the largest
 *    event-loop delay of this process meanwhile (perf_hooks.monitorEventLoopDelay, 10 ms resolution).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { JsonataTransformEngine } from '../../services/incoming-hooks/src/adapters/transform/jsonata-engine';
import { applyTransform, type TransformRequest } from '../../services/incoming-hooks/src/domain/transform/apply-transform.usecase';
import { decodeWebhookBody, webhookRequestFrom } from '../../services/incoming-hooks/src/entry-points/http/webhook-payload';

const ROUNDS = Number(process.env.BENCH_TRANSFORM_ROUNDS ?? 20_000);
const FIXTURE = join(__dirname, '..', '..', 'services', 'incoming-hooks', 'templates', 'fixtures', 'github', 'push.json');

export const HOSTILE: Readonly<Record<string, string>> = {
  'infinite recursion': '($f := function($n){ $f($n + 1) }; $f(0))',
  'endless loop (tail calls)': '($f := function($n){ $n < 0 ? $n : $f($n + 1) }; $f(0))',
  '100 MB string': '$pad("", 100000000, "x")',
  'string doubling to 1 GB': '($s := $pad("", 1000000, "x"); $d := function($x, $n){ $n = 0 ? $x : $d($x & $x, $n - 1) }; $d($s, 10))',
  'million-element array': '[1..1000000]',
  'catastrophic regex': '$match($pad("", 40, "a") & "!", /^(a+)+$/)',
};

function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

async function perRequestUs(work: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 2_000; i += 1) await work();
  const start = cpuUs();
  for (let i = 0; i < ROUNDS; i += 1) await work();
  return (cpuUs() - start) / ROUNDS;
}

export async function run(): Promise<{ extraCpuUs: number; hostile: Record<string, { stoppedMs: number; maxLoopDelayMs: number; reason: string }> }> {
  const engine = new JsonataTransformEngine();
  const raw = readFileSync(FIXTURE);
  const headers = { 'content-type': 'application/json', 'x-github-event': 'push', 'user-agent': 'GitHub-Hookshot/abc' };
  const request: TransformRequest = { transform: { template: 'github' }, onlyEvents: [], excludeEvents: [], secret: '', headers, body: { raw, mediaType: 'application/json' }, query: '', maxOutputBytes: 300_000 };
  const first = await applyTransform(engine, request);
  if (first.filtered) throw new Error('filtered');
  const slackBody = Buffer.from(JSON.stringify(first.post));
  const transformUs = await perRequestUs(async () => {
    const outcome = await applyTransform(engine, request);
    if (!outcome.filtered) webhookRequestFrom(outcome.post);
  });
  const plainUs = await perRequestUs(async () => {
    decodeWebhookBody(headers, { raw: slackBody }, '');
  });
  const extraCpuUs = transformUs - plainUs;
  process.stdout.write(`   GitHub push (${raw.length} B) through the github template: ${transformUs.toFixed(1)} µs CPU per request vs ${plainUs.toFixed(1)} µs for the Slack-style body it yields: extra ${extraCpuUs.toFixed(1)} µs (${(extraCpuUs / 1000).toFixed(3)} ms) per hook\n`);

  const hostile: Record<string, { stoppedMs: number; maxLoopDelayMs: number; reason: string }> = {};
  const input = { body: {}, headers: {}, query: {} };
  await engine.evaluateExpression('{"text": "warm"}', input, { timeMs: 250, maxOutputBytes: 300_000 });
  for (const [name, expression] of Object.entries(HOSTILE)) {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const start = performance.now();
    let reason = 'not stopped';
    try {
      await engine.evaluateExpression(expression, input, { timeMs: 250, maxOutputBytes: 300_000 });
    } catch (error) {
      reason = (error as { detailedError?: string }).detailedError ?? String(error);
    }
    const stoppedMs = performance.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 20));
    delay.disable();
    hostile[name] = { stoppedMs, maxLoopDelayMs: delay.max / 1e6, reason };
    process.stdout.write(`   hostile: ${name.padEnd(26)} stopped after ${stoppedMs.toFixed(0).padStart(5)} ms, max event-loop delay ${(delay.max / 1e6).toFixed(1).padStart(5)} ms: ${reason}\n`);
  }
  await engine.close();
  return { extraCpuUs, hostile };
}
