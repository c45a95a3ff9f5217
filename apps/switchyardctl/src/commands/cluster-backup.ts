import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { fields, Output, type CliIo } from '../output';
import type { Environment } from '../session';
import { UsageError } from '../usage-error';
import { MongoClient } from 'mongodb';
import { dumpBucket, restoreBucket, s3Client, type BucketSettings } from '../cluster-backup/bucket';
import { dumpDatabase, restoreDatabase } from '../cluster-backup/mongo-dump';

interface ClusterOptions {
  readonly mongo: string[];
  readonly s3Bucket?: string;
  readonly s3Endpoint: string;
  readonly s3Ssl: boolean;
  readonly s3Region: string;
}

/** What a backup holds, written last (a directory without it is an unfinished backup). */
export interface Manifest {
  readonly created_at: string;
  readonly databases: Record<string, Record<string, number>>;
  readonly files?: { readonly bucket: string; readonly objects: number; readonly bytes: number };
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** The MongoDB URLs (flags, else BACKUP_MONGO_URLS: keeps credentials out of `ps`), each naming its database. */
function mongoUrls(options: ClusterOptions, env: Environment): { url: string; db: string }[] {
  const urls = options.mongo.length > 0 ? options.mongo : (env.BACKUP_MONGO_URLS ?? '').split(/[\s,]+/).filter(Boolean);
  if (urls.length === 0) throw new UsageError('name the databases: --mongo mongodb://host:27017/<database> (repeatable) or BACKUP_MONGO_URLS');
  return urls.map((url) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new UsageError('--mongo: not a URL (mongodb://host:port/<database>)');
    }
    const db = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
    if (!/^mongodb(\+srv)?:$/.test(parsed.protocol) || !/^[A-Za-z0-9_-]{1,63}$/.test(db)) throw new UsageError(`--mongo ${parsed.protocol}//${parsed.host}${parsed.pathname}: a mongodb:// URL whose path names the database`);
    return { url, db };
  });
}

function bucketSettings(options: ClusterOptions, env: Environment): BucketSettings | undefined {
  if (!options.s3Bucket) return undefined;
  return {
    bucket: options.s3Bucket,
    endpoint: options.s3Endpoint,
    ssl: options.s3Ssl,
    region: options.s3Region,
    ...(env.BACKUP_S3_ACCESS_KEY_ID ? { accessKeyId: env.BACKUP_S3_ACCESS_KEY_ID } : {}),
    ...(env.BACKUP_S3_SECRET_ACCESS_KEY ? { secretAccessKey: env.BACKUP_S3_SECRET_ACCESS_KEY } : {}),
  };
}

function withClusterOptions(command: Command): Command {
  return command
    .option('--mongo <url>', 'a database to include: mongodb://user:pass@host:27017/<database> (repeatable; or BACKUP_MONGO_URLS, space/comma separated)', collect, [])
    .option('--s3-bucket <bucket>', 'posts\' file bucket (FileSettings.AmazonS3Bucket); keys from BACKUP_S3_ACCESS_KEY_ID / BACKUP_S3_SECRET_ACCESS_KEY')
    .option('--s3-endpoint <host[:port]>', 'the object store (FileSettings.AmazonS3Endpoint)', 's3.amazonaws.com')
    .option('--no-s3-ssl', 'plain http to the object store')
    .option('--s3-region <region>', 'FileSettings.AmazonS3Region', 'us-east-1');
}

/**
 * `cluster-backup <dir>` / `cluster-restore <dir>`: the distributed runtime's durable state, MongoDB (one
 * database per service, mongodump's directory layout) and posts' files (the object store's objects under
 * files/), plus manifest.json with every count. The CronJob (k8s/components/backup) writes the same layout
 * with mongodump and rclone; `cluster-restore` reads either. Stop the services (scale to 0) around a restore.
 */
export function registerClusterBackupCommands(program: Command, io: CliIo, env: Environment): void {
  const output = (command: Command) => new Output(io, command.optsWithGlobals<{ json?: boolean }>().json === true);

  withClusterOptions(program.command('cluster-backup'))
    .description('back up a distributed Switchyard: every --mongo database and the --s3-bucket files into <dir> (mongodump layout + files/ + manifest.json)')
    .argument('<dir>', 'an empty or new directory')
    .action(async (dir: string, options: ClusterOptions, command: Command) => {
      const target = resolve(dir);
      const databases = mongoUrls(options, env);
      const bucket = bucketSettings(options, env);
      const manifest: { created_at: string; databases: Record<string, Record<string, number>>; files?: Manifest['files'] } = { created_at: new Date().toISOString(), databases: {} };
      for (const { url, db } of databases) {
        const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 10_000 });
        try {
          manifest.databases[db] = await dumpDatabase(client.db(db), target);
        } finally {
          await client.close();
        }
      }
      if (bucket) {
        const s3 = s3Client(bucket);
        try {
          manifest.files = { bucket: bucket.bucket, ...(await dumpBucket(s3, bucket.bucket, target)) };
        } finally {
          s3.destroy();
        }
      }
      await writeFile(join(target, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
      output(command).result({ dir: target, ...manifest }, () => [`backup written to ${target}`, ...summary(manifest)]);
    });

  withClusterOptions(program.command('cluster-restore'))
    .description('restore <dir> (this tool\'s backup or mongodump --out + rclone files/) into every --mongo database and the --s3-bucket; the services must be stopped')
    .argument('<dir>', 'the backup directory')
    .option('--drop', 'drop each collection before restoring it (default: refuse a collection that has documents)')
    .action(async (dir: string, options: ClusterOptions & { drop?: boolean }, command: Command) => {
      const source = resolve(dir);
      const databases = mongoUrls(options, env);
      const bucket = bucketSettings(options, env);
      const manifest = await readFile(join(source, 'manifest.json'), 'utf8').then((text) => JSON.parse(text) as Manifest, () => undefined);
      const restored: { created_at: string; databases: Record<string, Record<string, number>>; files?: Manifest['files'] } = { created_at: manifest?.created_at ?? '', databases: {} };
      for (const { url, db } of databases) {
        const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 10_000 });
        try {
          restored.databases[db] = await restoreDatabase(client.db(db), source, db, options.drop === true);
        } finally {
          await client.close();
        }
      }
      if (bucket) {
        const s3 = s3Client(bucket);
        try {
          restored.files = { bucket: bucket.bucket, ...(await restoreBucket(s3, bucket.bucket, source)) };
        } finally {
          s3.destroy();
        }
      }
      const mismatches = manifest ? compare(manifest, restored) : [];
      output(command).result({ dir: source, ...restored, mismatches }, () => [`restored ${source}`, ...summary(restored), ...mismatches.map((m) => `MISMATCH ${m}`)]);
      if (mismatches.length > 0) throw new Error(`the restored counts differ from the backup's manifest: ${mismatches.join('; ')}`);
    });
}

function summary(m: { databases: Record<string, Record<string, number>>; files?: Manifest['files'] }): string[] {
  return fields([
    ...Object.entries(m.databases).map(([db, counts]): [string, string] => [db, `${Object.values(counts).reduce((a, b) => a + b, 0)} documents in ${Object.keys(counts).length} collections`]),
    ...(m.files ? [['files', `${m.files.objects} objects, ${m.files.bytes} bytes (${m.files.bucket})`] as [string, string]] : []),
  ]);
}

/** What the manifest counted that the restore did not put back (only the databases and bucket restored). */
function compare(manifest: Manifest, restored: { databases: Record<string, Record<string, number>>; files?: Manifest['files'] }): string[] {
  const out: string[] = [];
  for (const [db, counts] of Object.entries(restored.databases)) {
    for (const [collection, expected] of Object.entries(manifest.databases[db] ?? {})) {
      if ((counts[collection] ?? 0) !== expected) out.push(`${db}.${collection}: ${counts[collection] ?? 0} restored, ${expected} backed up`);
    }
  }
  if (restored.files && manifest.files && (restored.files.objects !== manifest.files.objects || restored.files.bytes !== manifest.files.bytes)) {
    out.push(`files: ${restored.files.objects} objects/${restored.files.bytes} bytes restored, ${manifest.files.objects}/${manifest.files.bytes} backed up`);
  }
  return out;
}
