import { test } from 'node:test';
import assert from 'node:assert/strict';
import express from 'express';
import { inject } from 'light-my-request';
import { PostsInternalPaths, Services } from '@switchyard/contracts';
import { serviceCredential } from '@switchyard/http-kit';
import { SECRET_MASK } from '@switchyard/system-config';
import { internalFileSettingsRoutes } from './internal-file-settings.routes';

const SECRET = 'test-internal-secret-0123456789abcdef';

test('when users-bots asks which FileSettings the environment fixes, then it gets them with the secret key masked; others are refused', async () => {
  const app = express();
  app.use(internalFileSettingsRoutes(SECRET, { DriverName: 'amazons3', AmazonS3AccessKeyId: 'AKIA-visible', AmazonS3SecretAccessKey: 'very-secret' }));
  const path = PostsInternalPaths.fileSettingsOverrides;
  const res = await inject(app, { method: 'GET', url: path, headers: serviceCredential(Services.usersBots, SECRET).headers('GET', path) });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { overrides: { DriverName: 'amazons3', AmazonS3AccessKeyId: 'AKIA-visible', AmazonS3SecretAccessKey: SECRET_MASK } });
  assert.ok(!res.body.includes('very-secret'));
  const other = await inject(app, { method: 'GET', url: path, headers: serviceCredential(Services.incomingHooks, SECRET).headers('GET', path) });
  assert.ok(other.statusCode >= 400 && !other.body.includes('amazons3'));
  const none = await inject(app, { method: 'GET', url: path });
  assert.ok(none.statusCode >= 400);
});
