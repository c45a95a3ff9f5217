import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { GroupCommit } from './group-commit';

/** One turn of the event loop: every `setImmediate` queued before it has run. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A WAL database and a group commit whose syncs finish only when the test says so. */
function heldSyncs(): { db: Database.Database; commits: GroupCommit; pending: ((error: NodeJS.ErrnoException | null) => void)[]; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'group-commit-scheduling-'));
  const db = new Database(join(dir, 'test.db'));
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE items (id TEXT PRIMARY KEY) STRICT');
  const pending: ((error: NodeJS.ErrnoException | null) => void)[] = [];
  const commits = new GroupCommit(db, -1, (done) => pending.push(done));
  return {
    db,
    commits,
    pending,
    dispose: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('group commit scheduling', () => {
  it('when writes arrive while a sync runs, then their batch stays open and commits once, when that sync ends', async () => {
    const { db, commits, pending, dispose } = heldSyncs();
    try {
      const insert = db.prepare('INSERT INTO items (id) VALUES (?)');
      const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM items');
      await commits.write(() => insert.run('a'));
      let firstDurable = false;
      const first = commits.flush().then(() => (firstDurable = true));
      await nextTurn();
      assert.equal(db.inTransaction, false, 'the first batch committed at the end of its turn');
      assert.equal(pending.length, 1, 'and its sync started');
      // Writes over several turns while the disk is busy: one batch, not one commit per turn.
      let laterDurable = false;
      const later: Promise<unknown>[] = [];
      for (const id of ['b', 'c', 'd']) {
        await commits.write(() => insert.run(id));
        later.push(commits.flush().then(() => (laterDurable = true)));
        await nextTurn();
        assert.equal(db.inTransaction, true, `the batch holding ${id} waits for the running sync`);
      }
      assert.equal(count.get()?.n, 4, 'the open batch is readable on the connection');
      assert.equal(pending.length, 1, 'no second sync while the first runs');
      pending.shift()?.(null);
      await first;
      assert.equal(firstDurable, true);
      assert.equal(db.inTransaction, false, 'the sync end committed the waiting batch');
      assert.equal(laterDurable, false, 'its answers wait for the sync that covers it');
      assert.equal(pending.length, 1, 'whose sync started at once');
      pending.shift()?.(null);
      await Promise.all(later);
      assert.equal(laterDurable, true);
      assert.equal(commits.healthy, true);
    } finally {
      dispose();
    }
  });

  it('when the sync fails, then the batch waiting for it is not committed and every waiting flush rejects', async () => {
    const { db, commits, pending, dispose } = heldSyncs();
    try {
      const insert = db.prepare('INSERT INTO items (id) VALUES (?)');
      await commits.write(() => insert.run('a'));
      const first = commits.flush();
      first.catch(() => undefined);
      await nextTurn();
      await commits.write(() => insert.run('b'));
      const second = commits.flush();
      second.catch(() => undefined);
      pending.shift()?.(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
      await assert.rejects(first, /EIO/);
      await assert.rejects(second, /EIO/);
      assert.equal(commits.healthy, false);
      assert.equal(db.inTransaction, false, 'the waiting batch was rolled back');
      assert.deepEqual(db.prepare('SELECT id FROM items ORDER BY id').all(), [{ id: 'a' }], 'only the committed batch is in the file');
      assert.equal(pending.length, 0, 'no sync after the failure');
    } finally {
      dispose();
    }
  });
});
