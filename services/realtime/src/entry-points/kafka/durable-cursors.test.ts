import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { envelope, Topics } from '@switchyard/contracts';
import { MemoryEventBus } from '@switchyard/event-bus';
import { createSilentLogger } from '@switchyard/logger';
import { openStore, SqliteEventJournal, type SqliteStore } from '@switchyard/sqlite-kit';
import { MemoryDirectory } from '../../adapters/memory/directory.memory';
import { Hub } from '../../domain/hub';
import { MembershipCache } from '../../domain/membership-cache';
import { EventCursors } from '../../domain/stream/event-cursors';
import { EventStream } from '../../domain/stream/event-stream';
import { RecordingSocket, session } from '../../test-support/fakes';
import { testCodec } from '../../test-support/stream-setup';
import { CONSUMED_TOPICS, eventsConsumer } from './events.consumer';

const channel = { id: 'c1', team_id: 't', team_name: 'tn', type: 'O', name: 'n', display_name: 'N', creator_id: 'alice', delete_at: 0 };
const created = (id: string) =>
  envelope('post.created', {
    post: { id, create_at: 1, update_at: 1, edit_at: 0, delete_at: 0, is_pinned: false, user_id: 'alice', channel_id: 'c1', root_id: '', original_id: '', message: id, type: '', props: {}, hashtags: '', file_ids: [], pending_post_id: '', reply_count: 0, last_reply_at: 0, participants: null },
    channel,
    team: { id: 't', name: 'tn' },
    author: { id: 'alice', username: 'alice', is_bot: false },
    source: 'api',
    from_webhook: false,
    is_system: false,
  });

const postIds = (events: readonly Record<string, unknown>[]): string[] =>
  events.filter((e) => e.event === 'posted').map((e) => (JSON.parse((e.data as { post: string }).post) as { id: string }).id);

/** The embedded runtime's bus on a data directory, and a realtime replica on it (the journal gates delivery when `gated`). */
async function embedded(dir: string, gated: boolean) {
  const store = openStore({ dir });
  const journal = new SqliteEventJournal(store, undefined, { topics: CONSUMED_TOPICS, retentionMs: () => 3_600_000 });
  const bus = new MemoryEventBus({ journal });
  const clock = { now: () => Date.now() };
  const directory = new MemoryDirectory();
  directory.addChannelMember('c1', 'alice');
  directory.addChannelMember('c1', 'bot');
  const membership = new MembershipCache({ source: directory, clock, ttlMs: 60_000, maxChannels: 100, maxTeamEntries: 100 });
  const stream = new EventStream(CONSUMED_TOPICS, { clock, maxRecords: 100, maxAgeMs: 3_600_000 });
  stream.start(await bus.endOffsets(CONSUMED_TOPICS));
  const cursors = new EventCursors(testCodec(), stream, { membership, users: directory }, (ranges, max) => bus.readLog(ranges, max));
  const hub = new Hub({ membership, clock, limits: { sendQueue: 64, replayBuffer: 16 }, reconnectWindowMs: 1000, defaultServerVersion: 'v', cursors });
  const durable = gated ? { durable: (m: { topic: string; partition: number; offset: string }) => journal.whenDurable(m.topic, m.partition, Number(m.offset)) } : {};
  const handler = eventsConsumer({ hub, membership, users: directory, logger: createSilentLogger(), maxAttempts: 1, cursors, ...durable });
  const sub = await bus.subscribe({ groupId: `realtime-${Math.random()}`, topics: [...CONSUMED_TOPICS], startAt: 'latest', handler });
  /** Published as the services do: inside a store write, durable once the write's flush resolved. */
  const post = async (id: string): Promise<void> => {
    await store.write(() => void bus.publish(Topics.postsEvents, [{ key: 'c1', value: created(id) }]));
    await store.flush();
  };
  const close = async (): Promise<void> => {
    await sub.stop();
    await bus.close();
    await journal.flush().catch(() => undefined);
    await store.close();
  };
  return { store, bus, hub, cursors, post, close };
}

const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i += 1) await Promise.resolve();
};

/**
 * The bot holds the cursor of the last frame it got. The process dies (its files copied as they are on disk,
 * as a SIGKILL leaves them) while a post's write is not committed yet; after the restart the next post gets
 * the lost post's offset. Resuming from the bot's cursor must give that next post.
 */
async function crashWhileSaving(gated: boolean, dirs: string[]): Promise<{ live: string[]; resumed: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'durable-cursors-'));
  const copy = mkdtempSync(join(tmpdir(), 'durable-cursors-crashed-'));
  dirs.push(dir, copy);
  const first = await embedded(dir, gated);
  const socket = new RecordingSocket();
  first.hub.open(socket, { session: session('bot'), connectionId: '', sequenceNumber: 0 });
  await first.post('saved');
  await new Promise((resolve) => setImmediate(resolve));
  // In one turn: the write is open (commits at the end of the turn), its message is handed to the groups.
  void (first.store as SqliteStore).write(() => void first.bus.publish(Topics.postsEvents, [{ key: 'c1', value: created('lost') }]));
  await turns(200);
  cpSync(dir, copy, { recursive: true });
  const frames = socket.frames();
  const cursor = String(frames[frames.length - 1]?.cursor);
  await first.close();

  const second = await embedded(copy, gated);
  try {
    await second.post('after-restart');
    const checked = second.cursors.check(cursor, 'bot');
    assert.equal(checked.status, 'complete');
    const batch = await second.cursors.batch({ userId: 'bot', isAdmin: false, username: 'bot' }, checked.position as NonNullable<typeof checked.position>, 100);
    return { live: postIds(frames), resumed: postIds(batch.events) };
  } finally {
    await second.close();
  }
}

describe('event cursors on the embedded journal: a crash never reuses a position a cursor holds', () => {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('when the process dies before a post is on disk, then no frame showed it, and the next post after the restart (at its offset) is resumed', async () => {
    const { live, resumed } = await crashWhileSaving(true, dirs);
    assert.deepEqual(live, ['saved'], 'only what is on disk was shown');
    assert.deepEqual(resumed, ['after-restart']);
  });

  it('(the case it guards) without the durability gate the lost post is shown, and its cursor then skips the post that reuses its offset', async () => {
    const { live, resumed } = await crashWhileSaving(false, dirs);
    assert.deepEqual(live, ['saved', 'lost']);
    assert.deepEqual(resumed, [], 'the gap this gate closes');
  });
});
