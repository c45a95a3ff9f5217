import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { isFileTooLarge } from '../../domain/files/file-ports';
import { fileStoreContract } from './file-store.contract';
import { LocalFileStore } from './local-file-store';

const roots: string[] = [];
test.after(async () => {
  await Promise.all(roots.map((r) => rm(r, { recursive: true, force: true })));
});

async function freshRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'sy-files-'));
  roots.push(root);
  return root;
}

fileStoreContract('local directory', async () => new LocalFileStore(await freshRoot()));

test('when a write fails half way, then no temporary file is left and the key is absent', async () => {
  const root = await freshRoot();
  const store = new LocalFileStore(root);
  const failing = new Readable({
    read() {
      this.push(Buffer.alloc(1000, 1));
      this.destroy(new Error('client went away'));
    },
  });
  await assert.rejects(store.write('a/b.bin', failing), /client went away/);
  assert.equal(await store.exists('a/b.bin'), false);
  assert.deepEqual(await readdir(join(root, '.tmp')), []);
  await assert.rejects(store.write('a/c.bin', Readable.from([Buffer.alloc(2000)]), 1000), isFileTooLarge);
  assert.deepEqual(await readdir(join(root, '.tmp')), []);
});

test('when the store is checked at start, then temporary files a crash left behind are removed once stale, and younger ones kept', async () => {
  const root = await freshRoot();
  const store = new LocalFileStore(root);
  await store.check();
  const old = join(root, '.tmp', 'crashed.part');
  const young = join(root, '.tmp', 'writing.part');
  await writeFile(old, 'half');
  await writeFile(young, 'half');
  const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
  await utimes(old, twoHoursAgo, twoHoursAgo);
  await store.check();
  assert.deepEqual(await readdir(join(root, '.tmp')), ['writing.part']);
});
