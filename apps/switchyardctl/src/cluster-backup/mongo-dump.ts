import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { BSON, type Db } from 'mongodb';

/**
 * One database in mongodump's directory layout (`mongodump --out`): `<dir>/<db>/<collection>.bson` (the
 * documents' BSON, one after the other, bytes as the server sent them) and `<collection>.metadata.json`
 * (its indexes). mongorestore reads what this writes, and `restoreDatabase` reads what mongodump writes
 * (also `--gzip`'s `.bson.gz`), so the CronJob's mongodump backups and this tool's are interchangeable.
 */

export interface IndexSpec {
  readonly key: Record<string, unknown>;
  readonly name: string;
  readonly unique?: boolean;
  readonly sparse?: boolean;
}

/** Writes every collection of `db` under `<dir>/<db name>`; returns the document count of each. */
export async function dumpDatabase(db: Db, dir: string): Promise<Record<string, number>> {
  const out = join(dir, db.databaseName);
  await mkdir(out, { recursive: true });
  const counts: Record<string, number> = {};
  const collections = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).filter((n) => !n.startsWith('system.')).sort();
  for (const name of collections) {
    const collection = db.collection(name);
    const file = createWriteStream(join(out, `${name}.bson`));
    let count = 0;
    // raw: each document's BSON bytes as the server sent them (no decode and re-encode: every type kept).
    for await (const raw of collection.find({}, { raw: true, batchSize: 1000 }) as AsyncIterable<unknown>) {
      if (!file.write(raw as Buffer)) await new Promise<void>((r) => file.once('drain', () => r()));
      count += 1;
    }
    await new Promise<void>((resolve, reject) => file.end((error?: Error | null) => (error ? reject(error) : resolve())));
    const indexes = (await collection.listIndexes().toArray()) as unknown as IndexSpec[];
    await writeFile(join(out, `${name}.metadata.json`), JSON.stringify({ options: {}, indexes, collectionName: name, type: 'collection' }));
    counts[name] = count;
  }
  return counts;
}

/** The documents of one `.bson` (or `.bson.gz`) file. */
export function readBsonFile(bytes: Buffer): Buffer[] {
  const docs: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    if (at + 4 > bytes.length) throw new Error(`truncated BSON file: ${bytes.length - at} trailing bytes`);
    const size = bytes.readInt32LE(at);
    if (size < 5 || at + size > bytes.length) throw new Error(`corrupt BSON file: a document of ${size} bytes at offset ${at} of ${bytes.length}`);
    docs.push(bytes.subarray(at, at + size));
    at += size;
  }
  return docs;
}

/**
 * Restores `<dir>/<source name>` into `db`: each collection's documents (with `drop`, the collection is
 * dropped first; without it, a collection that already has documents is refused) and its indexes.
 * Returns the document count restored per collection.
 */
export async function restoreDatabase(db: Db, dir: string, sourceName: string, drop: boolean): Promise<Record<string, number>> {
  const source = join(dir, sourceName);
  const files = (await readdir(source)).filter((f) => f.endsWith('.bson') || f.endsWith('.bson.gz')).sort();
  const counts: Record<string, number> = {};
  for (const file of files) {
    const name = file.replace(/\.bson(\.gz)?$/, '');
    const collection = db.collection(name);
    if (drop) await collection.drop().catch(() => undefined);
    else if ((await collection.estimatedDocumentCount()) > 0) throw new Error(`${db.databaseName}.${name} already has documents: restore into an empty database, or pass --drop`);
    const bytes = await readFile(join(source, file));
    const docs = readBsonFile(file.endsWith('.gz') ? gunzipSync(bytes) : bytes).map((raw) => BSON.deserialize(raw, { promoteLongs: false, promoteValues: false, bsonRegExp: true }));
    for (let i = 0; i < docs.length; i += 1000) await collection.insertMany(docs.slice(i, i + 1000), { ordered: true });
    await restoreIndexes(db, source, name);
    counts[name] = docs.length;
  }
  return counts;
}

async function restoreIndexes(db: Db, source: string, name: string): Promise<void> {
  let metadata: { indexes?: IndexSpec[] } | undefined;
  // mongodump --gzip compresses the metadata too.
  for (const [file, gz] of [[`${name}.metadata.json`, false], [`${name}.metadata.json.gz`, true]] as const) {
    const bytes = await readFile(join(source, file)).catch(() => undefined);
    if (bytes) metadata = JSON.parse((gz ? gunzipSync(bytes) : bytes).toString('utf8')) as { indexes?: IndexSpec[] };
  }
  if (!metadata) return; // no metadata: the services create their indexes at start anyway
  for (const index of metadata.indexes ?? []) {
    if (index.name === '_id_') continue;
    // mongodump writes numbers as {"$numberInt": "1"} in canonical extended JSON: read them back as numbers.
    const key = BSON.EJSON.deserialize(index.key, { relaxed: true }) as Record<string, 1 | -1>;
    await db.collection(name).createIndex(key, { name: index.name, ...(index.unique ? { unique: true } : {}), ...(index.sparse ? { sparse: true } : {}) });
  }
}
