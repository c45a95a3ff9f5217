import { isAbsolute, join } from 'node:path';
import type { SystemConfig } from '@switchyard/system-config';
import type { FileStore } from '../../domain/files/file-ports';
import { LocalFileStore } from './local-file-store';
import { S3FileStore } from './s3-file-store';

type FileSettings = SystemConfig['FileSettings'];

/**
 * The FileStore the current `FileSettings` name (`local`: a directory, relative ones under `dataDir`;
 * `amazons3`: a bucket), built again only when a setting it depends on changes.
 */
export class FileStoreFromSettings {
  private key = '';
  private store: FileStore | undefined;

  public constructor(
    private readonly settings: () => FileSettings,
    private readonly dataDir: string | undefined,
  ) {}

  public current(): FileStore {
    const s = this.settings();
    const key = JSON.stringify([s.DriverName, s.Directory, s.AmazonS3Bucket, s.AmazonS3Endpoint, s.AmazonS3SSL, s.AmazonS3Region, s.AmazonS3AccessKeyId, s.AmazonS3SecretAccessKey, s.AmazonS3PathPrefix, s.AmazonS3RequestTimeoutMilliseconds]);
    if (this.store && key === this.key) return this.store;
    if (this.store instanceof S3FileStore) this.store.close();
    this.store = s.DriverName === 'amazons3' ? new S3FileStore(s, this.dataDir ? join(this.dataDir, 'upload-spool') : undefined) : new LocalFileStore(isAbsolute(s.Directory) || !this.dataDir ? s.Directory : join(this.dataDir, s.Directory));
    this.key = key;
    return this.store;
  }

  public close(): void {
    if (this.store instanceof S3FileStore) this.store.close();
    this.store = undefined;
  }
}
