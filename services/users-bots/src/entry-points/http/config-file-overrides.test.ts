import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { PostsInternalPaths } from '@switchyard/contracts';
import { InProcessTransport } from '@switchyard/http-kit';
import { SECRET_MASK } from '@switchyard/system-config';
import { httpHarness, type Caller, type HttpHarness } from '../../test-support/http-harness';

/** posts as users-bots sees it here: its environment fixes these FileSettings (or it is down). */
function fakePosts(state: { overrides: Record<string, unknown> | undefined }): RequestListener {
  return (req, res) => {
    if (req.url === PostsInternalPaths.fileSettingsOverrides && state.overrides) {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ overrides: state.overrides }));
      return;
    }
    res.statusCode = 503;
    res.end('down');
  };
}

describe('config: FileSettings fixed by the environment (MM_FILESETTINGS_* of posts)', () => {
  const state: { overrides: Record<string, unknown> | undefined } = { overrides: { DriverName: 'amazons3', AmazonS3Bucket: 'env-bucket', AmazonS3SecretAccessKey: SECRET_MASK } };
  let h: HttpHarness;
  let admin: Caller;
  before(async () => {
    const transport = new InProcessTransport();
    transport.register('posts', fakePosts(state));
    h = await httpHarness({ transport });
    admin = await h.admin();
  });
  after(async () => h.stop());

  const documentFiles = async (): Promise<Record<string, unknown>> => (await h.request('GET', '/internal/v1/config', { service: 'posts' })).json().FileSettings;

  it('when an admin reads the config, then FileSettings are the ones in effect, the secret masked, the document unchanged', async () => {
    const res = await h.request('GET', '/api/v4/config', { as: admin });
    assert.equal(res.statusCode, 200);
    const files = res.json().FileSettings;
    assert.equal(files.DriverName, 'amazons3');
    assert.equal(files.AmazonS3Bucket, 'env-bucket');
    assert.equal(files.AmazonS3SecretAccessKey, SECRET_MASK);
    assert.equal(files.MaxFileSize, 104857600);
    assert.equal((await documentFiles()).DriverName, 'local');
  });

  it('when the config in effect is written back with another change, then the change applies and the environment\'s keys stay the document\'s own', async () => {
    const shown = (await h.request('GET', '/api/v4/config', { as: admin })).json();
    shown.FileSettings.MaxFileSize = 5_000_000;
    const res = await h.request('PUT', '/api/v4/config', { as: admin, body: shown });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().FileSettings.DriverName, 'amazons3', 'the answer shows what is in effect');
    const stored = await documentFiles();
    assert.equal(stored.MaxFileSize, 5_000_000);
    assert.equal(stored.DriverName, 'local');
    assert.equal(stored.AmazonS3Bucket, '');
    assert.equal(stored.AmazonS3SecretAccessKey, '');
  });

  it('when posts cannot say, then the document is shown, never an error', async () => {
    const saved = state.overrides;
    state.overrides = undefined;
    try {
      const res = await h.request('GET', '/api/v4/config', { as: admin });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().FileSettings.DriverName, 'local');
    } finally {
      state.overrides = saved;
    }
  });
});
