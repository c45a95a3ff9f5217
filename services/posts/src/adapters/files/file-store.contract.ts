import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { access, readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { newId } from '@switchyard/ids';
import { isFileTooLarge, type FileStore } from '../../domain/files/file-ports';

async function collect(stream: Readable | undefined): Promise<Buffer> {
  assert.ok(stream, 'a stream');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The FileStore contract: every adapter (local directory, S3) runs it. */
export function fileStoreContract(name: string, make: () => Promise<FileStore>): void {
  describe(`FileStore contract: ${name}`, () => {
    const key = (file = 'report.txt'): string => `20261127/teams/noteam/channels/${newId()}/users/${newId()}/${newId()}/${file}`;

    it('when bytes are written, then they read back exactly and exist', async () => {
      const store = await make();
      const k = key();
      const data = randomBytes(200_000);
      assert.equal(await store.write(k, data), data.length);
      assert.deepEqual(await store.read(k), data);
      assert.equal(await store.exists(k), true);
    });

    it('when a stream is written, then its bytes read back and the size is returned', async () => {
      const store = await make();
      const k = key('chunks.bin');
      const parts = [randomBytes(1000), randomBytes(70_000), randomBytes(5)];
      assert.equal(await store.write(k, Readable.from(parts)), 71_005);
      assert.deepEqual(await store.read(k), Buffer.concat(parts));
    });

    it('when a stream is over the limit, then FileTooLargeError and the key stays absent', async () => {
      const store = await make();
      const k = key();
      await assert.rejects(store.write(k, Readable.from([randomBytes(600), randomBytes(600)]), 1000), isFileTooLarge);
      assert.equal(await store.exists(k), false);
      assert.equal(await store.read(k), undefined);
      await assert.rejects(store.write(k, randomBytes(1001), 1000), isFileTooLarge);
      assert.equal(await store.exists(k), false);
    });

    it('when a stream is staged, then a local file holds its bytes under no key, and commit makes it the key and consumes it', async () => {
      const store = await make();
      const k = key('staged.bin');
      const parts = [randomBytes(65_536), randomBytes(300_000), randomBytes(17)];
      const staged = await store.stage(Readable.from(parts), 1_000_000);
      assert.equal(staged.size, 365_553);
      assert.deepEqual(await readFile(staged.path), Buffer.concat(parts));
      assert.equal(await store.exists(k), false);
      await store.commit(staged, k);
      assert.deepEqual(await store.read(k), Buffer.concat(parts));
      await assert.rejects(access(staged.path));
    });

    it('when a staged stream is over the limit or discarded, then no staged file is left and no key appears', async () => {
      const store = await make();
      await assert.rejects(store.stage(Readable.from([randomBytes(700), randomBytes(700)]), 1000), isFileTooLarge);
      const staged = await store.stage(Readable.from([randomBytes(10)]), 1000);
      await store.discard(staged);
      await assert.rejects(access(staged.path));
      await store.discard(staged);
    });

    it('when a key is missing, then read is undefined, exists false and remove does not fail', async () => {
      const store = await make();
      const k = key();
      assert.equal(await store.read(k), undefined);
      assert.equal(await store.exists(k), false);
      await store.remove(k);
    });

    it('when a key is overwritten then removed, then the new bytes are read, then nothing', async () => {
      const store = await make();
      const k = key();
      await store.write(k, Buffer.from('first'));
      await store.write(k, Buffer.from('second, longer'));
      assert.equal((await store.read(k))?.toString(), 'second, longer');
      await store.remove(k);
      assert.equal(await store.exists(k), false);
    });

    it('when an empty file is written, then it reads back empty', async () => {
      const store = await make();
      const k = key('empty');
      assert.equal(await store.write(k, Buffer.alloc(0)), 0);
      assert.deepEqual(await store.read(k), Buffer.alloc(0));
    });

    it('when an object is opened, then its bytes stream whole or in the range asked, with its whole size', async () => {
      const store = await make();
      const k = key('opened.bin');
      const data = randomBytes(300_000);
      await store.write(k, data);
      assert.equal(await store.size(k), data.length);
      const whole = await store.open(k);
      assert.equal(whole?.size, data.length);
      assert.deepEqual(await collect(whole?.stream), data);
      for (const [start, end] of [[0, 0], [100, 199], [299_999, 299_999], [65_530, 200_000]] as const) {
        const part = await store.open(k, { start, end });
        assert.equal(part?.size, data.length);
        assert.deepEqual(await collect(part?.stream), data.subarray(start, end + 1), `${start}-${end}`);
      }
      const empty = key('empty-opened');
      await store.write(empty, Buffer.alloc(0));
      const opened = await store.open(empty);
      assert.equal(opened?.size, 0);
      assert.equal((await collect(opened?.stream)).length, 0);
    });

    it('when a missing object is opened or sized, then undefined; a stream let go early closes', async () => {
      const store = await make();
      assert.equal(await store.open(key()), undefined);
      assert.equal(await store.size(key()), undefined);
      const k = key('big.bin');
      await store.write(k, randomBytes(2_000_000));
      const opened = await store.open(k);
      await new Promise<void>((resolve) => opened?.stream.once('data', () => resolve()));
      opened?.stream.destroy();
      await new Promise<void>((resolve) => (opened?.stream.closed ? resolve() : opened?.stream.once('close', () => resolve())));
    });

    it('when a key tries to leave the root, then it is refused', async () => {
      const store = await make();
      for (const bad of ['../x', 'a/../../x', '/etc/passwd', 'a//b', 'a\\b', 'a/\0b', '']) {
        await assert.rejects(store.write(bad, Buffer.from('x')), /invalid storage key/);
        await assert.rejects(store.read(bad), /invalid storage key/);
        await assert.rejects(store.open(bad), /invalid storage key/);
        await assert.rejects(store.size(bad), /invalid storage key/);
      }
    });

    it('when the store is checked, then it is usable', async () => {
      const store = await make();
      await store.check();
    });
  });
}
