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
  it('when writes arrive while a sync runs, then each turn commits at its end (beside the disk) and one next sync covers them all', async () => {
    const { db, commits, pending, dispose } = heldSyncs();
    try {
      const insert = db.prepare('INSERT INTO items (id) VALUES (?)');
      await commits.write(() => insert.run('a'));
      let firstDurable = false;
      const first = commits.flush().then(() => (firstDurable = true));
      await nextTurn();
      assert.equal(db.inTransaction, false, 'the first batch committed at the end of its turn');
      assert.equal(pending.length, 1, 'and its sync started');
      // Writes over several turns while the disk is busy: each turn's COMMIT runs while the sync does.
      let laterDurable = false;
      const later: Promise<unknown>[] = [];
      for (const id of ['b', 'c', 'd']) {
        await commits.write(() => insert.run(id));
        later.push(commits.flush().then(() => (laterDurable = true)));
        await nextTurn();
        assert.equal(db.inTransaction, false, `the batch holding ${id} committed at the end of its turn`);
      }
      assert.equal(pending.length, 1, 'no second sync while the first runs');
      pending.shift()?.(null);
      await first;
      assert.equal(firstDurable, true);
      assert.equal(laterDurable, false, 'the later answers wait for the sync that covers their commits');
      assert.equal(pending.length, 1, 'which started when the first ended');
      pending.shift()?.(null);
      await Promise.all(later);
      assert.equal(laterDurable, true);
      assert.equal(pending.length, 0, 'one sync covered the three commits');
      assert.equal(commits.healthy, true);
    } finally {
      dispose();
    }
  });

  it('when the sync fails, then every flush waiting for it or for the next one rejects and the store refuses writes', async () => {
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
      await assert.rejects(commits.write(() => insert.run('c')), /EIO/);
      assert.equal(pending.length, 0, 'no sync after the failure');
    } finally {
      dispose();
    }
  });
});
