/**
 * CPU the post search index adds per post in the embedded store (the FTS5 triggers of posts' migration 4),
 * without HTTP: the store step of a post as POST /posts does it (insert with its pending event, channel
 * recordPost, findById, clearEvent; committed and fsynced in groups of 32), with a 12-word message and a
 * hashtag, on a store WITH the index and on one without it (search-index-off.ts: the search triggers dropped,
 * FTS5 tables that find no word), alternating `rounds` times; prints each and the minimum of each side (the box is shared: read the
 * minimums).
 *
 *   node --conditions=source --import tsx scripts/bench-support/search-index-cost.ts [iterations] [rounds]
 */
import { cpuUsage } from 'node:process';
import { openTestStore } from '@switchyard/sqlite-kit';
import { aChannel, aPost, anEvent } from '../../services/posts/src/adapters/contracts/fixtures';
import { createSqliteRepositories } from '../../services/posts/src/adapters/sqlite/index';
import { dropSearchIndex } from './search-index-off';

const BATCH = 32;
const WORDS = ['deploy', 'finished', 'build', 'service', 'green', 'release', 'rollback', 'latency', 'queue', 'alert', 'cluster', 'backup', 'restore', 'canary'];

async function measure(withIndex: boolean, iterations: number): Promise<number> {
  const s = openTestStore('search-cost-');
  const repos = createSqliteRepositories(s);
  if (!withIndex) {
    dropSearchIndex(s.db);
  }
  const channel = aChannel();
  await repos.channels.insert(channel);
  let n = 0;
  const run = async (count: number): Promise<void> => {
    for (let done = 0; done < count; done += BATCH) {
      await Promise.all(
        Array.from({ length: BATCH }, async () => {
          n += 1;
          const message = `${Array.from({ length: 12 }, (_, k) => WORDS[(n * 7 + k * 3) % WORDS.length]).join(' ')} #build-${n % 50}`;
          const post = aPost({ channel_id: channel.id, message, hashtags: `#build-${n % 50}`, pending_events: [] });
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

async function main(): Promise<void> {
  const iterations = Number(process.argv[2] ?? 10_000);
  const rounds = Number(process.argv[3] ?? 3);
  const on: number[] = [];
  const off: number[] = [];
  for (let r = 0; r < rounds; r += 1) {
    off.push(await measure(false, iterations));
    on.push(await measure(true, iterations));
    process.stdout.write(`round ${r + 1}: without index ${off[r]?.toFixed(1)} µs, with index ${on[r]?.toFixed(1)} µs CPU per post\n`);
  }
  const [minOff, minOn] = [Math.min(...off), Math.min(...on)];
  process.stdout.write(`search index cost per post (store step, min of ${rounds}): ${minOff.toFixed(1)} → ${minOn.toFixed(1)} µs (+${(minOn - minOff).toFixed(1)} µs); load ${(await import('node:os')).loadavg()[0]?.toFixed(1)}\n`);
}

void main();
