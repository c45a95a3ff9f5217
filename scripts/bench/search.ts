/**
 * Post search on a large team (not run by default: BENCH_ONLY=search; generating takes minutes). A fresh
 * embedded data directory: the admin, a second author, a team and BENCH_SEARCH_CHANNELS (default 1,000)
 * channels through HTTP; then BENCH_SEARCH_POSTS (default 1,000,000) posts written through the posts store
 * (SQLite repositories, batches of 1,000: the FTS5 triggers index them as POST /posts would), messages of
 * 6–14 words drawn from a 5,000-word vocabulary with a skewed (Zipf-like) frequency, half by each author;
 * then the runtime restarted on that directory and, with autocannon at 16 connections for BENCH_DURATION_S
 * (default 10) after a warm-up: a two-term search and a `from:` + term search, rotating over 64 queries of
 * mid-frequency words, by the admin (a member of every channel: the whole team is searched).
 * Target (issue 26): p99 ≤ 50 ms embedded.
 *
 * `BENCH_SEARCH_DATA_DIR=<dir>`: generate into that directory and keep it; a later run with the same sizes reuses
 * it (world.json records what was generated) instead of generating again.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@switchyard/sqlite-kit';
import { aPost } from '../../services/posts/src/adapters/contracts/fixtures';
import { createSqliteRepositories } from '../../services/posts/src/adapters/sqlite/index';
import { CpuMeter, formatCpuReport } from '../bench-support/cpu';
import { embeddedProcesses, type TargetProcess } from '../bench-support/target-processes';
import { loadFigures, requireClean, type AutocannonResult } from '../bench-support/load';
import { adminToken, call, must, startEmbeddedProcess } from '../bench-support/target';
import { warmUp } from '../bench-support/warm-up';

const requireCjs = createRequire(__filename);
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;

const POSTS = Number(process.env.BENCH_SEARCH_POSTS ?? 1_000_000);
const CHANNELS = Number(process.env.BENCH_SEARCH_CHANNELS ?? 1_000);
const CONNECTIONS = 16;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const VOCABULARY = 5_000;
const BATCH = 1_000;

/** A deterministic generator (mulberry32), so every run writes the same data. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'ri', 'po', 've', 'zu', 'da', 'fe', 'gi', 'ho', 'ju', 'by', 'cr', 'st', 'pl', 'qu'];

/** Word i of the vocabulary: three or four syllables, distinct for every i. */
function word(i: number): string {
  const a = SYLLABLES[i % 20] as string;
  const b = SYLLABLES[Math.floor(i / 20) % 20] as string;
  const c = SYLLABLES[Math.floor(i / 400) % 20] as string;
  return `${a}${b}${c}x`;
}

/** Skewed toward low indices: word 0 is the most frequent. */
function pick(next: () => number): number {
  return Math.min(VOCABULARY - 1, Math.floor(Math.pow(next(), 2.5) * VOCABULARY));
}

async function setUp(url: string): Promise<{ token: string; teamId: string; adminId: string; authorId: string; authorName: string; channelIds: string[] }> {
  const token = await adminToken(url);
  const me = await call(url, 'GET', '/api/v4/users/me', undefined, token);
  const adminId = (me.json as { id: string }).id;
  const team = await must(url, 'POST', '/api/v4/teams', { name: 'bench-search', display_name: 'Search', type: 'O' }, token, 201);
  const author = await must(url, 'POST', '/api/v4/users', { username: 'bench-author', email: 'bench-author@example.com', password: 'Bench-author-1' }, token, 201);
  await must(url, 'POST', `/api/v4/teams/${String(team.id)}/members`, { team_id: team.id, user_id: author.id }, token, 201);
  const channelIds: string[] = [];
  for (let i = 0; i < CHANNELS; i += 8) {
    const made = await Promise.all(
      Array.from({ length: Math.min(8, CHANNELS - i) }, (_, k) => must(url, 'POST', '/api/v4/channels', { team_id: team.id, name: `search-${i + k}`, display_name: `Search ${i + k}`, type: 'O' }, token, 201)),
    );
    channelIds.push(...made.map((c) => String(c.id)));
  }
  return { token, teamId: String(team.id), adminId, authorId: String(author.id), authorName: 'bench-author', channelIds };
}

async function generate(dataDir: string, channelIds: readonly string[], authors: readonly string[]): Promise<void> {
  const store = openStore({ dir: dataDir });
  const repos = createSqliteRepositories(store);
  const next = random(42);
  const started = Date.now();
  const base = Date.now() - POSTS * 10;
  try {
    for (let done = 0; done < POSTS; done += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, POSTS - done) }, (_, k) => {
        const n = done + k;
        const words = Array.from({ length: 6 + Math.floor(next() * 9) }, () => word(pick(next)));
        return aPost({ channel_id: channelIds[n % channelIds.length] as string, user_id: authors[n % authors.length] as string, message: words.join(' '), props: {}, create_at: base + n * 10, update_at: base + n * 10 });
      });
      await repos.posts.insertMany(batch);
      await store.flush();
      if ((done + BATCH) % 100_000 === 0) process.stdout.write(`search: ${done + BATCH} posts written (${Math.round((done + BATCH) / ((Date.now() - started) / 1000))} posts/s)\n`);
    }
  } finally {
    await store.close();
  }
  process.stdout.write(`search: ${POSTS} posts over ${channelIds.length} channels written through the store in ${Math.round((Date.now() - started) / 1000)} s\n`);
}

async function load(route: string, url: string, token: string, bodies: readonly string[], processes: readonly TargetProcess[]): Promise<void> {
  const autocannon = requireCjs('autocannon') as Autocannon;
  let turn = 0;
  const options = {
    url,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    requests: [{ setupRequest: (request: Record<string, unknown>) => ({ ...request, body: bodies[turn++ % bodies.length] }) }],
  };
  await warmUp(`search ${route}`, (duration) => autocannon({ ...options, connections: CONNECTIONS, duration }));
  const meter = await CpuMeter.start(processes);
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION_S });
  const counted = loadFigures(result);
  const cpu = await meter.finish(counted.ok);
  process.stdout.write(
    `search ${route} [embedded, ${POSTS} posts, ${CHANNELS} channels] ${CONNECTIONS} connections, ${result.duration} s: ${counted.okPerSec} 2xx/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms (target ≤ 50 ms), ${counted.non2xx} non-2xx, ${counted.errors} errors\n`,
  );
  process.stdout.write(formatCpuReport(cpu));
  requireClean(`search ${route}`, counted);
}

export async function run(): Promise<void> {
  if (!(process.env.BENCH_ONLY ?? '').split(',').includes('search')) {
    process.stdout.write('search: skipped (BENCH_ONLY=search runs it; generating 1,000,000 posts takes minutes)\n');
    return;
  }
  const kept = process.env.BENCH_SEARCH_DATA_DIR;
  const dataDir = kept ?? mkdtempSync(join(tmpdir(), 'switchyard-bench-search-'));
  try {
    const world = await generatedWorld(dataDir);
    const embedded = await startEmbeddedProcess({ dataDir });
    try {
      const token = await adminToken(embedded.url);
      const path = `${embedded.url}/api/v4/teams/${world.teamId}/posts/search`;
      const next = random(7);
      const mid = (): string => word(200 + Math.floor(next() * 800));
      const twoTerms = Array.from({ length: 64 }, () => JSON.stringify({ terms: `${mid()} ${mid()}`, is_or_search: false }));
      const fromTerm = Array.from({ length: 64 }, () => JSON.stringify({ terms: `from:${world.authorName} ${mid()}`, is_or_search: false }));
      const sample = await call(embedded.url, 'POST', `/api/v4/teams/${world.teamId}/posts/search`, JSON.parse(twoTerms[0] as string), token);
      process.stdout.write(`search: a two-term query finds ${(sample.json as { order: string[] }).order.length} posts (sample)\n`);
      const processes = embeddedProcesses(embedded.pid);
      await load('two terms', path, token, twoTerms, processes);
      await load('from: + term', path, token, fromTerm, processes);
    } finally {
      await embedded.stop();
    }
  } finally {
    if (kept === undefined) rmSync(dataDir, { recursive: true, force: true });
  }
}

type World = Awaited<ReturnType<typeof setUp>> & { readonly posts: number };

/** The world of a kept data directory generated with the same sizes, or a newly generated one (recorded in world.json). */
async function generatedWorld(dataDir: string): Promise<World> {
  const record = join(dataDir, 'world.json');
  if (existsSync(record)) {
    const world = JSON.parse(readFileSync(record, 'utf8')) as World;
    if (world.posts === POSTS && world.channelIds.length === CHANNELS) {
      process.stdout.write(`search: reusing ${POSTS} posts over ${CHANNELS} channels in ${dataDir}\n`);
      return world;
    }
    throw new Error(`${dataDir} holds ${world.posts} posts over ${world.channelIds.length} channels, not the ${POSTS}/${CHANNELS} asked for`);
  }
  mkdirSync(dataDir, { recursive: true });
  const embedded = await startEmbeddedProcess({ dataDir });
  let made: Awaited<ReturnType<typeof setUp>>;
  try {
    made = await setUp(embedded.url);
  } finally {
    await embedded.stop();
  }
  await generate(dataDir, made.channelIds, [made.adminId, made.authorId]);
  const world: World = { ...made, posts: POSTS };
  writeFileSync(record, JSON.stringify(world));
  return world;
}
