/**
 * SQL work of each post search form on the search bench's 1,000,000-post store, without HTTP or threads: the
 * SQLite search adapter (SqlitePostSearch.rows, as the search thread runs it) on a COPY of that store, CPU
 * per search and a sha1 of the rows answered (document, pending events, matches), so two builds can be
 * compared for work and for identical answers.
 *
 *   cp -r /tmp/search-bench-1m /tmp/search-plans-1m   # once; the copy is changed (see below)
 *   SEARCH_PLANS_ROOT=<tree> node --conditions=source --import tsx scripts/bench-support/search-plans.ts [dir] [repeat] [filter]
 *
 * SEARCH_PLANS_ROOT (default: this tree) names the tree whose adapter is measured (an older checkout whose
 * node_modules resolve, e.g. a symlink to this tree's). The first run on a copy gives it what the bench's
 * data lacks, in the same store write paths' triggers: two rare authors (every 3,333rd and every 1,111th
 * post reassigned: ~300 and ~900 posts spread over the whole history) and hashtags (`#often` on every 10th
 * post, `#seldom` on every 2,000th). `filter`: only forms whose label contains it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cpuUsage } from 'node:process';
import { openStore } from '@switchyard/sqlite-kit';
import type { PostSearchQuery } from '../../services/posts/src/domain/search/post-search.port';
import { queryOf } from '../../services/posts/src/adapters/contracts/post-search.contract';

interface World {
  readonly adminId: string;
  readonly authorId: string;
  readonly channelIds: string[];
}

interface Rows {
  rows(query: PostSearchQuery): { doc: string; events: string; matches: string[] }[];
}

const RARE_300 = 'rare-author-300-posts00000';
const RARE_900 = 'rare-author-900-posts00000';
/** Word i of the bench's vocabulary (scripts/bench/search.ts). */
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'ri', 'po', 've', 'zu', 'da', 'fe', 'gi', 'ho', 'ju', 'by', 'cr', 'st', 'pl', 'qu'];
const word = (i: number): string => `${SYLLABLES[i % 20]}${SYLLABLES[Math.floor(i / 20) % 20]}${SYLLABLES[Math.floor(i / 400) % 20]}x`;

function augment(db: ReturnType<typeof openStore>['db']): void {
  const done = db.prepare("SELECT count(*) AS n FROM p_posts_search_meta WHERE user_id = ?").get(RARE_300) as { n: number };
  if (done.n > 0) return;
  process.stdout.write('search-plans: adding rare authors and hashtags to the copy…\n');
  db.exec('BEGIN');
  db.prepare("UPDATE p_posts SET user_id = ?, doc = json_set(doc, '$.user_id', ?) WHERE rowid % 3333 = 7").run(RARE_300, RARE_300);
  db.prepare("UPDATE p_posts SET user_id = ?, doc = json_set(doc, '$.user_id', ?) WHERE rowid % 1111 = 5").run(RARE_900, RARE_900);
  for (const [tag, every] of [['#often', 10], ['#seldom', 2_000]] as const) {
    db.prepare(`UPDATE p_posts SET doc = json_set(doc, '$.message', json_extract(doc, '$.message') || ' ${tag}', '$.hashtags', '${tag}') WHERE rowid % ${every} = 3`).run();
  }
  db.exec('COMMIT');
}

async function main(): Promise<void> {
  const dir = resolve(process.argv[2] ?? '/tmp/search-plans-1m');
  const repeat = Number(process.argv[3] ?? 20);
  const filter = process.argv[4] ?? '';
  const root = resolve(process.env.SEARCH_PLANS_ROOT ?? join(__dirname, '../..'));
  const world = JSON.parse(readFileSync(join(dir, 'world.json'), 'utf8')) as World;
  const store = openStore({ dir });
  augment(store.db);
  const adapter = (await import(join(root, 'services/posts/src/adapters/sqlite/post-search.sqlite.ts'))) as { SqlitePostSearch: new (db: unknown) => Rows };
  const search = new adapter.SqlitePostSearch(store.db);
  const all = Object.freeze([...world.channelIds]);
  const one = Object.freeze([world.channelIds[17] as string]);
  const times = store.db.prepare('SELECT min(create_at) AS lo, max(create_at) AS hi FROM p_posts_search_meta').get() as { lo: number; hi: number };
  const at = (fraction: number): number => Math.round(times.lo + (times.hi - times.lo) * fraction);
  const common = word(0);
  const second = word(1);
  const mid = [word(300), word(517), word(742), word(901)];
  const forms: [string, PostSearchQuery][] = [
    ...mid.map((m, i): [string, PostSearchQuery] => [`two terms ${i}`, queryOf(`${m} ${word(250 + i * 111)}`, all)]),
    ...mid.map((m, i): [string, PostSearchQuery] => [`from:author + mid ${i}`, queryOf(m, all, { userIds: [world.authorId] })]),
    ['from:rare300 + common', queryOf(common, all, { userIds: [RARE_300] })],
    ['from:rare900 + common', queryOf(common, all, { userIds: [RARE_900] })],
    ['from:rare900 + second', queryOf(second, all, { userIds: [RARE_900] })],
    ['from:rare300 + mid', queryOf(mid[0] as string, all, { userIds: [RARE_300] })],
    ['common before:half', queryOf(common, all, { time: { to: at(0.5), excluded: [] } })],
    ['common after:half', queryOf(common, all, { time: { from: at(0.5), excluded: [] } })],
    ['common before:5%', queryOf(common, all, { time: { to: at(0.05), excluded: [] } })],
    ['common 2% range', queryOf(common, all, { time: { from: at(0.3), to: at(0.32), excluded: [] } })],
    ['mid before:half', queryOf(mid[1] as string, all, { time: { to: at(0.5), excluded: [] } })],
    ['in:one -common', queryOf(`-${common}`, one)],
    ['in:one -mid', queryOf(`-${mid[2]}`, one)],
    ['in:one common', queryOf(common, one)],
    ['in:one mid', queryOf(mid[2] as string, one)],
    ['mid -#often', queryOf(`${mid[0]} -#often`, all)],
    ['common -#often', queryOf(`${common} -#often`, all)],
    ['common -#seldom', queryOf(`${common} -#seldom`, all)],
    ['#often', queryOf('#often', all)],
    ['#seldom', queryOf('#seldom', all)],
    ['#often -common', queryOf(`#often -${common}`, all)],
    ['#seldom -common', queryOf(`#seldom -${common}`, all)],
    ['#often from:rare300', queryOf('#often', all, { userIds: [RARE_300] })],
    ['#seldom from:author', queryOf('#seldom', all, { userIds: [world.authorId] })],
    ['#often in:one', queryOf('#often', one)],
    ['#often -#seldom', queryOf('#often -#seldom', all)],
    ['mid + #often', queryOf(`${mid[0]} #often`, all)],
    ['common + #seldom', queryOf(`${common} #seldom`, all)],
    ['common -mid', queryOf(`${common} -${mid[3]}`, all)],
    ['common -from:author', queryOf(common, all, { excludedUserIds: [world.authorId] })],
    ['from:author (no words)', queryOf('', all, { userIds: [world.authorId] })],
    ['from:rare300 (no words)', queryOf('', all, { userIds: [RARE_300] })],
    ['from:rare300 in:one (no words)', queryOf('', one, { userIds: [RARE_300] })],
    ['before:half (no words)', queryOf('', all, { time: { to: at(0.5), excluded: [] } })],
    ['after:half (no words)', queryOf('', all, { time: { from: at(0.5), excluded: [] } })],
    ['in:one (no words)', queryOf('', one)],
    ['-in:one (no words)', queryOf('', Object.freeze(world.channelIds.filter((id) => id !== one[0])))],
    ['-from:author (no words)', queryOf('', all, { excludedUserIds: [world.authorId] })],
    ['mid* prefix', queryOf(`${(mid[1] as string).slice(0, 4)}*`, all)],
    ['"phrase" common second', queryOf(`"${common} ${second}"`, all)],
  ];
  let totalMs = 0;
  for (const [label, query] of forms.filter(([label]) => label.includes(filter))) {
    const first = search.rows(query);
    const sha = createHash('sha1').update(JSON.stringify(first)).digest('hex').slice(0, 12);
    const start = cpuUsage();
    for (let i = 0; i < repeat; i++) search.rows(query);
    const used = cpuUsage(start);
    const ms = (used.user + used.system) / 1000 / repeat;
    totalMs += ms;
    process.stdout.write(`${label.padEnd(26)} ${String(first.length).padStart(3)} rows  ${ms.toFixed(2).padStart(7)} ms CPU/search  sha1 ${sha}\n`);
  }
  process.stdout.write(`total ${totalMs.toFixed(1)} ms CPU per round of forms\n`);
  await store.close();
}

void main();
