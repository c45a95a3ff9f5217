import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { loadPostsConfig } from './config';
import { describeOverrides, fileSettingsOverrides } from './file-settings-env';

const base = { INTERNAL_SECRET: 'test-internal-secret-0123456789abcdef' };

describe('FileSettings from the environment (MM_FILESETTINGS_*)', () => {
  it('when a deployment sets the object store keys, then exactly those keys are overridden, typed', () => {
    const config = loadPostsConfig({
      ...base,
      MM_FILESETTINGS_DRIVERNAME: 'amazons3',
      MM_FILESETTINGS_AMAZONS3BUCKET: 'switchyard-files',
      MM_FILESETTINGS_AMAZONS3ENDPOINT: 's3.example.internal:9000',
      MM_FILESETTINGS_AMAZONS3SSL: 'false',
      MM_FILESETTINGS_AMAZONS3REGION: '',
      MM_FILESETTINGS_AMAZONS3SECRETACCESSKEY: 'k3y',
    });
    assert.deepEqual(fileSettingsOverrides(config), {
      DriverName: 'amazons3',
      AmazonS3Bucket: 'switchyard-files',
      AmazonS3Endpoint: 's3.example.internal:9000',
      AmazonS3SSL: false,
      AmazonS3Region: '',
      AmazonS3SecretAccessKey: 'k3y',
    });
    assert.equal(config.FILES_CREATE_BUCKET, false);
  });

  it('when nothing is set, then nothing is overridden (the config document decides)', () => {
    assert.deepEqual(fileSettingsOverrides(loadPostsConfig(base)), {});
  });

  it('when the driver is unknown or the endpoint has a scheme, then the config is refused at start', () => {
    assert.throws(() => loadPostsConfig({ ...base, MM_FILESETTINGS_DRIVERNAME: 'gcs' }), /MM_FILESETTINGS_DRIVERNAME/);
    assert.throws(() => loadPostsConfig({ ...base, MM_FILESETTINGS_AMAZONS3ENDPOINT: 'https://s3.example.com' }), /MM_FILESETTINGS_AMAZONS3ENDPOINT/);
    assert.throws(() => loadPostsConfig({ ...base, MM_FILESETTINGS_AMAZONS3SSL: 'maybe' }), /MM_FILESETTINGS_AMAZONS3SSL/);
  });

  it('when the overrides are logged, then the access keys are never shown', () => {
    const shown = JSON.stringify(describeOverrides({ DriverName: 'amazons3', AmazonS3AccessKeyId: 'AKIAEXAMPLE', AmazonS3SecretAccessKey: 'top-secret' }));
    assert.ok(!shown.includes('AKIAEXAMPLE') && !shown.includes('top-secret'), shown);
    assert.match(shown, /"AmazonS3SecretAccessKey":"\(set\)"/);
  });
});
