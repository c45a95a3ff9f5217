import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { openReadConnection, openTestStore } from './index';

const TABLE = ['CREATE TABLE items (id TEXT PRIMARY KEY) STRICT'];

/** What a SELECT on `path` answers in another process: 'ok' or the SQLite error code (bounded: 20 s). */
function readFromAnotherProcess(path: string): string {
  const script = `const D = require(${JSON.stringify(require.resolve('better-sqlite3'))});
try { const db = new D(${JSON.stringify(path)}, { timeout: 0 }); db.prepare('SELECT count(*) FROM sqlite_master').get(); db.close(); console.log('ok'); }
catch (e) { console.log(e.code || e.message); }`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
  return run.stdout.trim();
}

describe('sqlite-kit process lock with a read connection', () => {
  it('when a read connection of the same process reads, then it sees only committed writes and cannot write', async () => {
    const store = openTestStore('sqlite-kit-reader-');
    const reader = openReadConnection(store.uri, 1024);
    try {
      store.migrate('items', TABLE);
      const count = reader.prepare<[], number>('SELECT count(*) FROM items').pluck();
      await store.write(() => store.db.prepare("INSERT INTO items (id) VALUES ('a')").run());
      assert.equal(count.get(), 0, 'the open write batch is not visible to another connection');
      await store.flush();
      assert.equal(count.get(), 1);
      assert.throws(() => reader.prepare("INSERT INTO items (id) VALUES ('b')").run(), /readonly|query_only/i);
    } finally {
      reader.close();
      await store.dispose();
    }
  });

  it('when the store and a read connection of its process have read, then another process still cannot open the database, and can once both are closed', async () => {
    const store = openTestStore('sqlite-kit-lock-');
    const path = store.path;
    const reader = openReadConnection(store.uri, 1024);
    try {
      store.migrate('items', TABLE);
      await store.flush();
      reader.prepare('SELECT count(*) FROM items').get();
      assert.equal(readFromAnotherProcess(path), 'SQLITE_BUSY');
      reader.close();
      assert.equal(readFromAnotherProcess(path), 'SQLITE_BUSY', 'the store itself still holds the lock');
      await store.close();
      assert.equal(readFromAnotherProcess(path), 'ok');
    } finally {
      if (reader.open) reader.close();
      await store.dispose();
    }
  });
});

describe('sqlite-kit store without SQLite URIs', () => {
  it('when SQLITE_USE_URI=0 is in the environment, then opening fails with one line naming it and creates no file', () => {
    const script = `const { openStore } = require('./index'); const dir = require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'sqlite-kit-nouri-'));
try { openStore({ dir }); console.log('opened'); } catch (e) { console.log(e.reason + ' | ' + e.message + ' | ' + require('node:fs').readdirSync(dir).length); } finally { require('node:fs').rmSync(dir, { recursive: true, force: true }); }`;
    const run = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', '-e', script], { cwd: __dirname, encoding: 'utf8', timeout: 60_000, env: { ...process.env, SQLITE_USE_URI: '0' } });
    assert.match(run.stdout.trim(), /^unwritable \| SQLITE_USE_URI is 0: .*unset it \| 0$/);
  });
});
