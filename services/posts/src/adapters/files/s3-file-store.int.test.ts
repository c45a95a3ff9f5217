import { test } from 'node:test';
import { newId } from '@switchyard/ids';
import { fileStoreContract } from './file-store.contract';
import { S3FileStore, type S3Settings } from './s3-file-store';

/** A real S3-compatible server (deploy/local/up.sh starts S3Proxy and writes S3_TEST_* into .env). */
const endpoint = process.env.S3_TEST_ENDPOINT;

function settings(bucket: string, prefix: string): S3Settings {
  return {
    AmazonS3Bucket: bucket,
    AmazonS3Endpoint: endpoint ?? '',
    AmazonS3SSL: false,
    AmazonS3Region: 'us-east-1',
    AmazonS3AccessKeyId: process.env.S3_TEST_ACCESS_KEY ?? '',
    AmazonS3SecretAccessKey: process.env.S3_TEST_SECRET_KEY ?? '',
    AmazonS3PathPrefix: prefix,
    AmazonS3RequestTimeoutMilliseconds: 10_000,
  };
}

if (!endpoint) {
  test('S3 file store: S3_TEST_ENDPOINT is not set (run deploy/local/up.sh)', { skip: true }, () => undefined);
} else {
  const bucket = `sy-test-${newId().slice(0, 12)}`;
  const stores: S3FileStore[] = [];
  test.after(() => stores.forEach((s) => s.close()));
  fileStoreContract('S3 (real server)', async () => {
    const store = new S3FileStore(settings(bucket, `run-${newId()}`));
    stores.push(store);
    await store.check(true);
    return store;
  });
}
