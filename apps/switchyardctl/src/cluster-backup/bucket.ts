import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { CreateBucketCommand, GetObjectCommand, HeadBucketCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

/** The object store as posts' FileSettings name it (path-style, as posts' adapter). */
export interface BucketSettings {
  readonly endpoint: string;
  readonly ssl: boolean;
  readonly region: string;
  readonly bucket: string;
  readonly accessKeyId?: string;
  readonly secretAccessKey?: string;
}

export function s3Client(s: BucketSettings): S3Client {
  return new S3Client({
    endpoint: `${s.ssl ? 'https' : 'http'}://${s.endpoint}`,
    region: s.region,
    forcePathStyle: true,
    // Checksums only where the API requires them: S3-compatible servers (S3Proxy, older MinIO) refuse the
    // SDK's default CRC headers ("implies functionality that is not implemented"), as posts' adapter does.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(s.accessKeyId && s.secretAccessKey ? { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } } : {}),
  });
}

/** A key safe to use as a path under the backup's files/ directory (posts' keys never contain these). */
function safePath(root: string, key: string): string {
  if (key === '' || key.includes('\0') || key.split('/').some((part) => part === '..' || part === '.') || key.startsWith('/')) throw new Error(`object key ${JSON.stringify(key)} cannot be a file path`);
  return join(root, ...key.split('/'));
}

/** Copies every object of the bucket to `<dir>/files/<key>`; returns the count and bytes. */
export async function dumpBucket(client: S3Client, bucket: string, dir: string): Promise<{ objects: number; bytes: number }> {
  const root = join(dir, 'files');
  await mkdir(root, { recursive: true });
  let objects = 0;
  let bytes = 0;
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ...(token ? { ContinuationToken: token } : {}) }));
    for (const item of page.Contents ?? []) {
      // Keys ending in "/" are directory markers (some servers list them, e.g. S3Proxy's filesystem backend): no content.
      if (!item.Key || item.Key.endsWith('/')) continue;
      const path = safePath(root, item.Key);
      await mkdir(dirname(path), { recursive: true });
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: item.Key }));
      await pipeline(object.Body as Readable, createWriteStream(path));
      objects += 1;
      bytes += (await stat(path)).size;
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return { objects, bytes };
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** Uploads `<dir>/files/**` into the bucket (created when missing); returns the count and bytes. */
export async function restoreBucket(client: S3Client, bucket: string, dir: string): Promise<{ objects: number; bytes: number }> {
  const root = join(dir, 'files');
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  }
  let objects = 0;
  let bytes = 0;
  for (const path of await walk(root).catch(() => [] as string[])) {
    const body = await readFile(path);
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: relative(root, path).split(sep).join('/'), Body: body }));
    objects += 1;
    bytes += body.length;
  }
  return { objects, bytes };
}
