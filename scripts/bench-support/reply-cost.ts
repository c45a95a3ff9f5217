/**
 * CPU of the embedded runtime per `POST /api/v4/posts` reply as one thread grows, beside root posts: each
 * reply maintains thread memberships and, with CollapsedThreads on (the default), builds `thread_updated`
 * from the root's replies (ADR 0033), so its cost follows the thread's length. A runtime in its own process
 * (compiled, as the benches), posts 8 at a time from one user; the CPU is the runtime process's own
 * (/proc), per post, for each step of the thread.
 *
 *   node --conditions=source --import tsx scripts/bench-support/reply-cost.ts [replies, default 2000] [step, default 250]
 */
import { processCpuMs } from './cpu';
import { adminToken, must, startEmbeddedProcess } from './target';

const AT_ONCE = 8;

async function main(): Promise<void> {
  const total = Number(process.argv[2] ?? 2000);
  const step = Number(process.argv[3] ?? 250);
  const embedded = await startEmbeddedProcess();
  try {
    const token = await adminToken(embedded.url);
    const suffix = Math.random().toString(36).slice(2, 8);
    const team = await must(embedded.url, 'POST', '/api/v4/teams', { name: `replies-${suffix}`, display_name: 'Replies', type: 'O' }, token, 201);
    const channel = await must(embedded.url, 'POST', '/api/v4/channels', { team_id: team.id, name: `replies-${suffix}`, display_name: 'Replies', type: 'O' }, token, 201);
    const root = await must(embedded.url, 'POST', '/api/v4/posts', { channel_id: channel.id, message: 'root' }, token, 201);
    const post = async (body: Record<string, unknown>): Promise<void> => {
      const res = await fetch(`${embedded.url}/api/v4/posts`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await res.text();
      if (res.status !== 201) throw new Error(`POST /api/v4/posts: ${res.status}`);
    };
    const measure = async (label: string, body: Record<string, unknown>): Promise<void> => {
      const before = processCpuMs(embedded.pid) ?? 0;
      for (let done = 0; done < step; done += AT_ONCE) await Promise.all(Array.from({ length: AT_ONCE }, () => post(body)));
      // thread_updated is built after the answer: let it finish before reading the CPU.
      await new Promise((resolve) => setTimeout(resolve, 300));
      process.stdout.write(`${label}: ${(((processCpuMs(embedded.pid) ?? 0) - before) / step).toFixed(2)} ms CPU per post\n`);
    };
    const message = 'deploy #42 finished in 3m12s';
    await measure('roots (warm-up)', { channel_id: channel.id, message });
    await measure('roots', { channel_id: channel.id, message });
    for (let done = 0; done < total; done += step) await measure(`replies ${done + 1}-${done + step} of one thread`, { channel_id: channel.id, root_id: root.id, message });
    await measure('roots after', { channel_id: channel.id, message });
  } finally {
    await embedded.stop();
  }
}

void main();
