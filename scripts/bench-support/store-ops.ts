/**
 * CPU per operation of the embedded runtime's hottest store and bus steps, without HTTP: steadier than the
 * HTTP bench on a loaded box, so an A/B of a change to sqlite-kit, the posts SQLite adapters or the
 * in-process bus can be compared by the minimum of alternating runs.
 *
 *   node --conditions=source --import tsx scripts/bench-support/store-ops.ts [store|bus] [iterations]
 *
 * store: per post as a hook creates it: insert (one pending event), channel recordPost, findById, clearEvent,
 *        committed and fsynced in groups of 32 (the bench's connections).
 * bus:   one publish of a post event to a topic with 5 groups (as posts.events has in the embedded runtime),
 *        every group handling it.
 */
import { cpuUsage } from 'node:process';
import { MemoryEventBus } from '@switchyard/event-bus';
import { openTestStore } from '@switchyard/sqlite-kit';
import { aChannel, aPost, anEvent } from '../../services/posts/src/adapters/contracts/fixtures';
import { createSqliteRepositories } from '../../services/posts/src/adapters/sqlite/index';

const BATCH = 32;

async function store(iterations: number): Promise<number> {
  const s = openTestStore('store-ops-');
  const repos = createSqliteRepositories(s);
  const channel = aChannel();
  await repos.channels.insert(channel);
  const run = async (count: number): Promise<void> => {
    for (let done = 0; done < count; done += BATCH) {
      await Promise.all(
        Array.from({ length: BATCH }, async () => {
          const post = aPost({ channel_id: channel.id, pending_events: [] });
          const event = anEvent(post.id);
          await repos.posts.insert({ ...post, pending_events: [event] });
          await repos.channels.recordPost(channel.id, post.create_at, true);
          await repos.posts.findById(post.id);
          await repos.posts.clearEvent(post.id, event.id);
        }),
      );
      await s.flush();
    }
  };
  await run(2_000);
  const start = cpuUsage();
  await run(iterations);
  const used = cpuUsage(start);
  await s.dispose();
  return (used.user + used.system) / iterations;
}

async function bus(iterations: number): Promise<number> {
  const b = new MemoryEventBus();
  let handled = 0;
  let wake: () => void = () => undefined;
  for (let g = 0; g < 5; g += 1) {
    await b.subscribe({
      groupId: `g${g}`,
      topics: ['posts.events'],
      handler: async (m) => {
        if ((m.value as { type?: unknown }).type === 'post.created') handled += 1;
        if (handled % (5 * BATCH) === 0) wake();
      },
    });
  }
  const run = async (count: number): Promise<void> => {
    for (let done = 0; done < count; done += BATCH) {
      const target = handled + 5 * BATCH;
      const all = new Promise<void>((resolve) => (wake = resolve));
      await Promise.all(Array.from({ length: BATCH }, (_, i) => b.publish('posts.events', [{ key: `c${i % 4}`, value: { type: 'post.created', payload: { post: aPost() } } }])));
      if (handled < target) await all;
    }
  };
  await run(2_000);
  const start = cpuUsage();
  await run(iterations);
  const used = cpuUsage(start);
  await b.close();
  return (used.user + used.system) / iterations;
}

async function main(): Promise<void> {
  const what = process.argv[2] ?? 'store';
  const iterations = Number(process.argv[3] ?? 20_000);
  const us = what === 'bus' ? await bus(iterations) : await store(iterations);
  process.stdout.write(`${what}: ${us.toFixed(1)} µs CPU per post over ${iterations} (load ${(await import('node:os')).loadavg()[0]?.toFixed(1)})\n`);
}

void main();
