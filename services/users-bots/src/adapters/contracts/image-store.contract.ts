import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { newId } from '@switchyard/ids';
import { MAX_STORED_IMAGE_BYTES, type ImageStore } from '../../domain/ports';
import type { Factory } from './fixtures';

const key = (): string => `users/${newId()}/profile.png`;

export function imageStoreContract(name: string, make: Factory<ImageStore>): void {
  describe(`ImageStore contract: ${name}`, () => {
    it('when a picture is put, then get returns the same bytes, type and time; an unknown key is undefined', async () => {
      const store = await make();
      const k = key();
      const data = randomBytes(70_000);
      await store.put(k, { contentType: 'image/png', data, updateAt: 42 });
      const read = await store.get(k);
      assert.equal(read?.contentType, 'image/png');
      assert.equal(read?.updateAt, 42);
      assert.ok(read && Buffer.isBuffer(read.data));
      assert.equal(Buffer.compare(read.data, data), 0);
      assert.equal(await store.get(key()), undefined);
    });

    it('when a key is put again, then the new picture replaces the old one whole', async () => {
      const store = await make();
      const k = `bots/${newId()}/icon.svg`;
      await store.put(k, { contentType: 'image/png', data: randomBytes(5_000), updateAt: 1 });
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
      await store.put(k, { contentType: 'image/svg+xml', data: svg, updateAt: 2 });
      assert.deepEqual(await store.get(k), { contentType: 'image/svg+xml', data: svg, updateAt: 2 });
    });

    it('when a picture is deleted, then it is gone and a second delete says nothing was there', async () => {
      const store = await make();
      const [a, b] = [key(), key()];
      await store.put(a, { contentType: 'image/png', data: Buffer.from([1, 2, 3]), updateAt: 1 });
      await store.put(b, { contentType: 'image/png', data: Buffer.from([4]), updateAt: 1 });
      assert.equal(await store.delete(a), true);
      assert.equal(await store.get(a), undefined);
      assert.equal(await store.delete(a), false);
      assert.equal((await store.get(b))?.data.length, 1);
    });

    it('when a returned picture is changed by the caller, then the stored one is not', async () => {
      const store = await make();
      const k = key();
      await store.put(k, { contentType: 'image/png', data: Buffer.from([1, 2, 3]), updateAt: 1 });
      const first = await store.get(k);
      first?.data.fill(0);
      assert.deepEqual([...((await store.get(k))?.data ?? [])], [1, 2, 3]);
    });

    it('when a picture is over the store limit, then put refuses it and keeps the old one', async () => {
      const store = await make();
      const k = key();
      await store.put(k, { contentType: 'image/png', data: Buffer.from([9]), updateAt: 1 });
      await assert.rejects(store.put(k, { contentType: 'image/png', data: Buffer.alloc(MAX_STORED_IMAGE_BYTES + 1), updateAt: 2 }), RangeError);
      assert.deepEqual([...((await store.get(k))?.data ?? [])], [9]);
    });
  });
}
