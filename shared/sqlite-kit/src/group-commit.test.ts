import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, openTestStore } from './index';

const TABLE = ['CREATE TABLE items (id TEXT PRIMARY KEY, name TEXT NOT NULL) STRICT'];

describe('group commit', () => {
  it('when writes resolve, then they are visible at once and a chain of dependent writes shares one open transaction', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    const store = openStore({ dir });
    store.migrate('test', TABLE);
    const insert = store.db.prepare('INSERT INTO items (id, name) VALUES (?, ?)');
    const count = store.db.prepare('SELECT count(*) AS n FROM items');
    // A chain of dependent writes (each awaits the one before, as a pipeline of consumers does) runs
    // within the turn: no write waits for a commit.
    let turns = 0;
    const ticker = setInterval(() => (turns += 1), 0);
    for (let i = 0; i < 50; i += 1) {
      await store.write(() => insert.run(`id${i}`, `n${i}`));
      assert.equal((count.get() as { n: number }).n, i + 1);
    }
    clearInterval(ticker);
    assert.equal(turns, 0, 'the chain finished before any timer ran');
    assert.equal(store.db.inTransaction, true, 'still one open transaction');
    await store.flush();
    assert.equal(store.db.inTransaction, false);
    await store.close();
    const again = openStore({ dir });
    assert.equal((again.db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n, 50);
    await again.close();
  });

  it('when a commit fails, then the store refuses every later write and flush and reports itself unhealthy', async () => {
    const store = openTestStore('group-commit-fail-');
    // A deferred foreign key is checked at COMMIT only: the write resolves, its commit fails.
    store.migrate('test', [
      'CREATE TABLE parents (id TEXT PRIMARY KEY) STRICT',
      'CREATE TABLE children (id TEXT PRIMARY KEY, parent TEXT NOT NULL REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED) STRICT',
    ]);
    const orphan = store.db.prepare('INSERT INTO children (id, parent) VALUES (?, ?)');
    const parent = store.db.prepare('INSERT INTO parents (id) VALUES (?)');
    await store.write(() => orphan.run('c1', 'missing'));
    assert.equal(store.health(), true);
    await assert.rejects(store.flush(), /FOREIGN KEY/);
    assert.equal(store.health(), false);
    await assert.rejects(store.write(() => parent.run('p1')), /FOREIGN KEY/);
    await assert.rejects(store.flush(), /FOREIGN KEY/);
    assert.equal((store.db.prepare('SELECT count(*) AS n FROM children').get() as { n: number }).n, 0, 'the failed batch was rolled back');
    await store.dispose();
  });

  it('when a hook is registered before commit, then it runs once, after the writes of the batch and inside its transaction', async () => {
    const store = openTestStore('group-commit-hook-');
    store.migrate('test', TABLE);
    const insert = store.db.prepare('INSERT INTO items (id, name) VALUES (?, ?)');
    const names = store.db.prepare('SELECT name FROM items ORDER BY rowid');
    let runs = 0;
    store.beforeCommit(() => {
      runs += 1;
      insert.run('hook', `after ${(names.all() as { name: string }[]).map((r) => r.name).join(',')}`);
    });
    await store.write(() => insert.run('a', 'a'));
    await store.write(() => insert.run('b', 'b'));
    assert.equal(runs, 0);
    await store.flush();
    assert.equal(runs, 1);
    assert.deepEqual((names.all() as { name: string }[]).map((r) => r.name), ['a', 'b', 'after a,b']);
    await store.write(() => insert.run('c', 'c'));
    await store.flush();
    assert.equal(runs, 1, 'a hook belongs to one commit');
    await store.dispose();
  });

  it('when a one-statement write fails, then only that statement is undone: the batch stays open and commits the writes around it', async () => {
    const store = openTestStore('group-commit-one-');
    store.migrate('test', TABLE);
    const insert = store.db.prepare('INSERT INTO items (id, name) VALUES (?, ?)');
    // A multi-row statement that fails on its second row: SQLite undoes the first row of it too.
    const insertTwo = store.db.prepare('INSERT INTO items (id, name) VALUES (?, ?), (?, ?)');
    await store.writeOne(() => insert.run('a', 'first'));
    await assert.rejects(store.writeOne(() => insertTwo.run('b', 'half', 'a', 'again')), /UNIQUE/);
    assert.equal(store.db.inTransaction, true, 'the failure left the batch open');
    await store.writeOne(() => insert.run('c', 'after'));
    await store.flush();
    const rows = store.db.prepare('SELECT id, name FROM items ORDER BY id').all();
    assert.deepEqual(rows, [
      { id: 'a', name: 'first' },
      { id: 'c', name: 'after' },
    ]);
    assert.equal(store.health(), true);
    await store.dispose();
  });
  it('when the open batch has changed nothing, then a flush does not wait for its commit; a changed row or a hook before commit makes it wait', async () => {
    const store = openTestStore('group-commit-unchanged-');
    store.migrate('test', TABLE);
    const insert = store.db.prepare('INSERT INTO items (id, name) VALUES (?, ?)');
    const rename = store.db.prepare('UPDATE items SET name = ? WHERE id = ?');
    const names = store.db.prepare('SELECT name FROM items ORDER BY rowid');
    // A periodic job's claim that finds nothing: the batch is open but holds no change.
    await store.write(() => rename.run('claimed', 'none'));
    assert.equal(store.db.inTransaction, true);
    await store.flush();
    assert.equal(store.db.inTransaction, true, 'the flush did not wait for the commit of a batch without changes');
    // A change joins the same batch: the next flush waits for its commit.
    await store.write(() => insert.run('a', 'a'));
    await store.flush();
    assert.equal(store.db.inTransaction, false, 'the flush waited for the commit of the changed batch');
    // An unchanged batch with a hook that writes before COMMIT: the flush waits for it too.
    await store.write(() => rename.run('claimed', 'none'));
    store.beforeCommit(() => insert.run('hook', 'hook'));
    await store.flush();
    assert.equal(store.db.inTransaction, false);
    assert.deepEqual((names.all() as { name: string }[]).map((r) => r.name), ['a', 'hook']);
    assert.equal(store.health(), true);
    await store.dispose();
  });
});
