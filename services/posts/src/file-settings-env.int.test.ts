import { strict as assert } from 'node:assert';
import { after, describe, it } from 'node:test';
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { MemoryEventBus } from '@switchyard/event-bus';
import { InProcessTransport } from '@switchyard/http-kit';
import { newId } from '@switchyard/ids';
import { createLogger } from '@switchyard/logger';
import { defaultSystemConfig } from '@switchyard/system-config';
import { createPostsApp } from './app';
import { loadPostsConfig } from './config';

/** A real S3-compatible server (deploy/local/up.sh starts S3Proxy and writes S3_TEST_* into .env). */
const endpoint = process.env.S3_TEST_ENDPOINT;

async function startPosts(bucket: string, create: boolean): Promise<{ lines: Record<string, unknown>[]; stop: () => Promise<void> }> {
  const lines: Record<string, unknown>[] = [];
  const config = loadPostsConfig({
    INTERNAL_SECRET: 'test-internal-secret-0123456789abcdef',
    OUTBOX_SWEEP_INTERVAL_MS: '0',
    MM_FILESETTINGS_DRIVERNAME: 'amazons3',
    MM_FILESETTINGS_AMAZONS3BUCKET: bucket,
    MM_FILESETTINGS_AMAZONS3ENDPOINT: endpoint ?? '',
    MM_FILESETTINGS_AMAZONS3SSL: 'false',
    MM_FILESETTINGS_AMAZONS3ACCESSKEYID: process.env.S3_TEST_ACCESS_KEY ?? '',
    MM_FILESETTINGS_AMAZONS3SECRETACCESSKEY: process.env.S3_TEST_SECRET_KEY ?? '',
    FILES_CREATE_BUCKET: String(create),
  });
  const logger = createLogger({ service: 'posts', level: 'info', sink: (line) => lines.push(line) });
  const app = createPostsApp(config, { logger, bus: new MemoryEventBus(), transport: new InProcessTransport() });
  // The config document says `local` (the default): the environment's keys must win.
  app.liveConfig.replace(defaultSystemConfig());
  await app.start();
  return { lines, stop: () => app.stop() };
}

if (!endpoint) {
  it('posts with FileSettings from the environment: S3_TEST_ENDPOINT is not set (run deploy/local/up.sh)', { skip: true }, () => undefined);
} else {
  describe('posts with its object store from the environment (a real S3 server)', () => {
    const s3 = new S3Client({ endpoint: `http://${endpoint}`, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: process.env.S3_TEST_ACCESS_KEY ?? '', secretAccessKey: process.env.S3_TEST_SECRET_KEY ?? '' } });
    after(() => s3.destroy());
    const exists = async (bucket: string): Promise<boolean> =>
      s3.send(new HeadBucketCommand({ Bucket: bucket })).then(
        () => true,
        () => false,
      );

    it('when FILES_CREATE_BUCKET=true and the bucket is missing, then posts creates it at start', async () => {
      const bucket = `sy-env-${newId().slice(0, 12)}`;
      assert.equal(await exists(bucket), false);
      const posts = await startPosts(bucket, true);
      try {
        assert.equal(await exists(bucket), true);
        assert.ok(!posts.lines.some((l) => l.level === 'error'), JSON.stringify(posts.lines));
        const shown = JSON.stringify(posts.lines);
        assert.ok(!shown.includes(process.env.S3_TEST_SECRET_KEY ?? '\u0000'), 'the secret key is never logged');
      } finally {
        await posts.stop();
      }
    });

    it('when the bucket is missing and creating is not allowed, then posts starts, says so clearly and creates nothing', async () => {
      const bucket = `sy-env-${newId().slice(0, 12)}`;
      const posts = await startPosts(bucket, false);
      try {
        const error = posts.lines.find((l) => l.level === 'error');
        assert.ok(error, 'an error line');
        assert.match(String(error.message), /file store unusable.*FILES_CREATE_BUCKET/);
        assert.match(JSON.stringify(error), new RegExp(bucket));
        assert.equal(await exists(bucket), false);
      } finally {
        await posts.stop();
      }
    });
  });
}
