import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ByteRange, FileStore, OpenedObject, StagedFile } from '../../domain/files/file-ports';
import { checkedKey } from './file-key';
import { discardStaged, stageInto, sweepStale } from './staging';

/** The reference's `FileSettings.AmazonS3*` keys this adapter follows. */
export interface S3Settings {
  readonly AmazonS3Bucket: string;
  readonly AmazonS3Endpoint: string;
  readonly AmazonS3SSL: boolean;
  readonly AmazonS3Region: string;
  readonly AmazonS3AccessKeyId: string;
  readonly AmazonS3SecretAccessKey: string;
  readonly AmazonS3PathPrefix: string;
  readonly AmazonS3RequestTimeoutMilliseconds: number;
}

type S3Sdk = typeof import('@aws-sdk/client-s3');

const statusOf = (error: unknown): number | undefined => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
const isMissing = (error: unknown): boolean => {
  const name = (error as { name?: string }).name;
  return name === 'NoSuchKey' || name === 'NotFound' || statusOf(error) === 404;
};

/**
 * Objects in an S3-compatible bucket (the `amazons3` driver), through @aws-sdk/client-s3 with path-style
 * addressing (MinIO, S3Proxy, SeaweedFS and AWS all take it). A PutObject is atomic on the server: an
 * object is visible whole or not at all. Keys get `AmazonS3PathPrefix` in front. The SDK is loaded when the
 * store is first used, so a posts service on the `local` driver never loads it (~20 MB of RSS, ADR 0040).
 */
export class S3FileStore implements FileStore {
  private readonly clientConfig: S3ClientConfig;
  private loaded: Promise<{ readonly sdk: S3Sdk; readonly client: S3Client }> | undefined;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly endpoint: string;

  /**
   * `spoolDir`: a local directory for staged uploads (bounded by MaxFileSize per upload in flight; an
   * emptyDir in k8s), read back for the thumbnail and sent with a known length.
   */
  public constructor(
    settings: S3Settings,
    private readonly spoolDir = join(tmpdir(), 'switchyard-upload-spool'),
  ) {
    const scheme = settings.AmazonS3SSL ? 'https' : 'http';
    const endpoint = settings.AmazonS3Endpoint === '' ? 's3.amazonaws.com' : settings.AmazonS3Endpoint;
    const hasKeys = settings.AmazonS3AccessKeyId !== '' || settings.AmazonS3SecretAccessKey !== '';
    this.clientConfig = {
      endpoint: `${scheme}://${endpoint}`,
      region: settings.AmazonS3Region === '' ? 'us-east-1' : settings.AmazonS3Region,
      forcePathStyle: true,
      // Both empty: the default chain (instance role), as the reference.
      ...(hasKeys ? { credentials: { accessKeyId: settings.AmazonS3AccessKeyId, secretAccessKey: settings.AmazonS3SecretAccessKey } } : {}),
      requestHandler: { requestTimeout: settings.AmazonS3RequestTimeoutMilliseconds > 0 ? settings.AmazonS3RequestTimeoutMilliseconds : 30_000 },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    };
    this.endpoint = endpoint;
    this.bucket = settings.AmazonS3Bucket;
    this.prefix = settings.AmazonS3PathPrefix.replace(/^\/+|\/+$/g, '');
  }

  /** Runs one SDK call with the client, loading the SDK and making the client on the first call. */
  private async send<T>(call: (s3: { readonly sdk: S3Sdk; readonly client: S3Client }) => Promise<T>): Promise<T> {
    this.loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({ sdk, client: new sdk.S3Client(this.clientConfig) }));
    return call(await this.loaded);
  }

  private keyOf(key: string): string {
    const checked = checkedKey(key);
    return this.prefix === '' ? checked : `${this.prefix}/${checked}`;
  }

  public stage(data: Readable | Buffer, maxBytes = Number.POSITIVE_INFINITY): Promise<StagedFile> {
    return stageInto(this.spoolDir, data, maxBytes, false);
  }

  /** One PutObject of known length, streamed from the staged file (atomic on the server), then the file is dropped. */
  public async commit(staged: StagedFile, key: string): Promise<void> {
    try {
      const objectKey = this.keyOf(key);
      await this.send(({ sdk, client }) => client.send(new sdk.PutObjectCommand({ Bucket: this.bucket, Key: objectKey, Body: createReadStream(staged.path), ContentLength: staged.size })));
    } finally {
      await discardStaged(staged).catch(() => undefined);
    }
  }

  public discard(staged: StagedFile): Promise<void> {
    return discardStaged(staged);
  }

  public async write(key: string, data: Readable | Buffer, maxBytes = Number.POSITIVE_INFINITY): Promise<number> {
    this.keyOf(key);
    const staged = await this.stage(data, maxBytes);
    await this.commit(staged, key);
    return staged.size;
  }

  public async read(key: string): Promise<Buffer | undefined> {
    try {
      const answer = await this.send(({ sdk, client }) => client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) })));
      if (!answer.Body) return Buffer.alloc(0);
      return Buffer.from(await answer.Body.transformToByteArray());
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** One GetObject (with its Range when given); the body streams from the server as the caller reads. */
  public async open(key: string, range?: ByteRange): Promise<OpenedObject | undefined> {
    try {
      const answer = await this.send(({ sdk, client }) => client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) })));
      const total = /\/(\d+)$/.exec(answer.ContentRange ?? '')?.[1];
      const size = total !== undefined ? Number(total) : (answer.ContentLength ?? 0);
      const body = answer.Body;
      const stream = body instanceof Readable ? body : Readable.from(body ? [Buffer.from(await body.transformToByteArray())] : []);
      return { stream, size };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  public async size(key: string): Promise<number | undefined> {
    try {
      return (await this.send(({ sdk, client }) => client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) })))).ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  public async exists(key: string): Promise<boolean> {
    try {
      await this.send(({ sdk, client }) => client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) })));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  public async remove(key: string): Promise<void> {
    await this.send(({ sdk, client }) => client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) })));
  }

  /** The bucket must exist; `create` makes it when missing (local servers, tests). Stale staged files are removed. */
  public async check(create = false): Promise<void> {
    if (this.bucket === '') throw new Error('file store: FileSettings.AmazonS3Bucket is empty');
    await sweepStale(this.spoolDir, 60 * 60 * 1000);
    try {
      await this.send(({ sdk, client }) => client.send(new sdk.HeadBucketCommand({ Bucket: this.bucket })));
    } catch (error) {
      if (create && isMissing(error)) {
        await this.send(({ sdk, client }) => client.send(new sdk.CreateBucketCommand({ Bucket: this.bucket })));
        return;
      }
      throw new Error(`file store: the bucket ${this.bucket} at ${this.endpoint} cannot be used (status ${statusOf(error) ?? 'none'}): ${(error as Error).name}`);
    }
  }

  public close(): void {
    void this.loaded?.then(({ client }) => client.destroy());
    this.loaded = undefined;
  }
}
