import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATABASE_FILE, isStoreOpenError, openStore, openTestStore, restoreDataDir, uniqueViolation, type StoreOpenFailure } from './index';

const TABLE = ['CREATE TABLE items (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE) STRICT'];

function freshDir(): string {
  return mkdtempSync(join(tmpdir(), 'sqlite-kit-'));
}

function assertOpenFails(action: () => unknown, reason: StoreOpenFailure, pattern: RegExp): void {
  assert.throws(action, (error: unknown) => {
    assert.ok(isStoreOpenError(error), `expected StoreOpenError, got ${String(error)}`);
    assert.equal(error.reason, reason);
    assert.match(error.message, pattern);
    assert.equal(error.message.includes('\n'), false, 'one line');
    return true;
  });
}

describe('sqlite-kit store', () => {
  it('when writes resolve, then they are there after the store is closed and opened again', async () => {
    const dir = freshDir();
    const store = openStore({ dir });
    store.migrate('test', TABLE);
    const insert = store.db.prepare('INSERT INTO items (id, name) VALUES (?, ?)');
    const results = await Promise.all([1, 2, 3].map((n) => store.write(() => insert.run(`id${n}`, `name${n}`).changes)));
    assert.deepEqual(results, [1, 1, 1]);
    await store.close();
    const again = openStore({ dir });
    assert.equal((again.db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n, 3);
    assert.deepEqual(again.versions(), { test: 1 });
    await again.close();
  });

  it('when one write of a batch fails, then only it is undone and it rejects with the unique column', async () => {
    const store = openTestStore();
    store.migrate('test', TABLE);
    const insert = store.db.prepare('INSERT INTO items (id, name) VALUES (?, ?)');
    const first = store.write(() => insert.run('a', 'same'));
    const second = store.write(() => {
      insert.run('b', 'other');
      insert.run('c', 'same');
    });
    await Promise.all([first, assert.rejects(second, (error: unknown) => uniqueViolation(error) === 'name')]);
    const ids = (store.db.prepare('SELECT id FROM items ORDER BY id').all() as { id: string }[]).map((r) => r.id);
    assert.deepEqual(ids, ['a']);
    await store.flush();
    await store.dispose();
  });

  it('when a second store opens the same directory, then it fails at once naming the directory', async () => {
    const dir = freshDir();
    const store = openStore({ dir });
    assertOpenFails(() => openStore({ dir }), 'in_use', /is in use by another Switchyard process \(pid \d+\)/);
    await store.close();
    const after = openStore({ dir });
    await after.close();
  });

  it('when the store holds a newer schema than the code knows, then migrate refuses with a clear message', async () => {
    const dir = freshDir();
    const store = openStore({ dir });
    store.migrate('test', [...TABLE, 'ALTER TABLE items ADD COLUMN extra TEXT']);
    await store.close();
    const older = openStore({ dir });
    assertOpenFails(() => older.migrate('test', TABLE), 'schema_too_new', /newer Switchyard \(test schema version 2, this build knows up to 1\)/);
    await older.close();
  });

  it('when the database file is not a database, then opening fails as corrupt', () => {
    const dir = freshDir();
    writeFileSync(join(dir, DATABASE_FILE), 'this is not an sqlite file, just text that is long enough to be a header'.repeat(20));
    assertOpenFails(() => openStore({ dir }), 'corrupt', /is not a valid Switchyard database/);
  });

  it('when the data directory cannot be created, then opening fails as unwritable', () => {
    const file = join(freshDir(), 'a-file');
    writeFileSync(file, 'x');
    assertOpenFails(() => openStore({ dir: join(file, 'data') }), 'unwritable', /cannot create data directory/);
    assertOpenFails(() => openStore({ dir: file }), 'unwritable', /is not a writable directory/);
  });

  it('when a backup is restored into a directory, then it holds the backup and not later writes', async () => {
    const dir = freshDir();
    const store = openStore({ dir });
    store.migrate('test', TABLE);
    const insert = store.db.prepare('INSERT INTO items (id, name) VALUES (?, ?)');
    await store.write(() => insert.run('kept', 'kept'));
    const backup = join(freshDir(), 'backup.db');
    await store.backup(backup);
    await store.write(() => insert.run('later', 'later'));
    assert.throws(() => restoreDataDir(backup, dir), (error: unknown) => isStoreOpenError(error) && error.reason === 'in_use');
    await store.close();
    assert.deepEqual(restoreDataDir(backup, dir), { test: 1 });
    const restored = openStore({ dir });
    const ids = (restored.db.prepare('SELECT id FROM items ORDER BY id').all() as { id: string }[]).map((r) => r.id);
    assert.deepEqual(ids, ['kept']);
    await restored.close();
    const notBackup = join(freshDir(), 'x.db');
    writeFileSync(notBackup, 'nope');
    assert.throws(() => restoreDataDir(notBackup, dir), (error: unknown) => isStoreOpenError(error) && error.reason === 'corrupt');
  });
});
