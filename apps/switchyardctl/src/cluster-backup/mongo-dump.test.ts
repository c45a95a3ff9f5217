import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { BSON, Long } from 'mongodb';
import { readBsonFile } from './mongo-dump';

test('when a .bson file holds documents back to back (mongodump layout), then each is read with its types', () => {
  const docs = [{ _id: 'a', n: 1, big: Long.fromString('9007199254740993') }, { _id: 'b', nested: { list: [1, 'two'] }, at: new Date(0) }];
  const file = Buffer.concat(docs.map((d) => Buffer.from(BSON.serialize(d))));
  const read = readBsonFile(file).map((raw) => BSON.deserialize(raw, { promoteLongs: false }));
  assert.equal(read.length, 2);
  assert.equal((read[0]?.big as Long).toString(), '9007199254740993');
  assert.deepEqual(read[1]?.nested, { list: [1, 'two'] });
  assert.deepEqual(readBsonFile(Buffer.alloc(0)), []);
});

test('when a .bson file is truncated or corrupt, then reading it fails instead of restoring part of it', () => {
  const one = Buffer.from(BSON.serialize({ _id: 'a', text: 'hello' }));
  assert.throws(() => readBsonFile(one.subarray(0, one.length - 3)), /corrupt BSON file/);
  assert.throws(() => readBsonFile(Buffer.concat([one, Buffer.from([1, 2])])), /truncated BSON file/);
  const lying = Buffer.from(one);
  lying.writeInt32LE(2, 0);
  assert.throws(() => readBsonFile(lying), /corrupt BSON file/);
});
