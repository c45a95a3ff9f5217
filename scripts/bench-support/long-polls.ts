/**
 * Idle long-polls of GET /api/v4/events on the embedded runtime (a fresh `npm start`): `count` consumers wait
 * with nothing to get; the process's RSS before and while they wait, and how each is answered (its wait).
 * Opened in waves of 500 (the accept backlog), from this process over loopback.
 */
import { Agent, get } from 'node:http';
import { adminToken, call, rssMb, startEmbeddedProcess } from './target';

export interface LongPollFigures {
  readonly count: number;
  readonly baseMb: number;
  readonly waitingMb: number;
  readonly statuses: Record<string, number>;
  readonly minAnswerMs: number;
  readonly maxAnswerMs: number;
}

/** Between waves of 500 (POLL_WAVE_MS). */
const WAVE_PAUSE_MS = Number(process.env.POLL_WAVE_MS ?? 100);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function idleLongPolls(count: number, waitS = 20): Promise<LongPollFigures> {
  const runtime = await startEmbeddedProcess();
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  try {
    const token = await adminToken(runtime.url);
    const first = await call(runtime.url, 'GET', '/api/v4/events', undefined, token);
    const cursor = encodeURIComponent(String((first.json as { cursor?: unknown }).cursor));
    await sleep(2000);
    const baseMb = rssMb(runtime.pid) ?? 0;
    const statuses: Record<string, number> = {};
    const times: number[] = [];
    const polls: Promise<void>[] = [];
    for (let i = 0; i < count; i += 1) {
      if (i > 0 && i % 500 === 0) await sleep(WAVE_PAUSE_MS);
      const started = Date.now();
      polls.push(
        new Promise<void>((resolve) => {
          const req = get(`${runtime.url}/api/v4/events?cursor=${cursor}&wait=${waitS}`, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
            res.resume();
            res.on('end', () => {
              statuses[String(res.statusCode)] = (statuses[String(res.statusCode)] ?? 0) + 1;
              times.push(Date.now() - started);
              resolve();
            });
          });
          req.on('error', (error: NodeJS.ErrnoException) => {
            statuses[error.code ?? 'error'] = (statuses[error.code ?? 'error'] ?? 0) + 1;
            resolve();
          });
        }),
      );
    }
    await sleep(Math.min(5_000, (waitS * 1000) / 3));
    const waitingMb = rssMb(runtime.pid) ?? 0;
    await Promise.all(polls);
    return { count, baseMb, waitingMb, statuses, minAnswerMs: Math.min(...times), maxAnswerMs: Math.max(...times) };
  } finally {
    agent.destroy();
    await runtime.stop();
  }
}

if (require.main === module) {
  void idleLongPolls(Number(process.env.POLLS ?? 1000), Number(process.env.POLL_WAIT ?? 20)).then((f) => process.stdout.write(`${JSON.stringify(f)}\n`));
}
