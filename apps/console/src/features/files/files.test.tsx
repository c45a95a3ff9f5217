import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import { ApiError } from '../../api/client';
import type { FileInfo } from '../../api/types';
import { fakeApi, route } from '../../test-support/fake-api';
import { fileUrl, filesOf, formatSize, showsInline } from './file-rules';
import { PendingUploads } from './pending-uploads';
import { PostFiles } from './post-files';
import { uploadFile } from './upload-file';
import { anyUploading, readyFileIds, roomLeft, uploadsReducer, type PendingUpload } from './uploads-state';

const info = (over: Partial<FileInfo>): FileInfo => ({ id: 'f1', user_id: 'u1', name: 'a.png', extension: 'png', size: 10, mime_type: 'image/png', has_preview_image: true, ...over });

test('when a file is an image the server previewed, then it is inline; SVG, animated GIF (no preview) and other types are not', () => {
  assert.equal(showsInline(info({})), true);
  assert.equal(showsInline(info({ mime_type: 'image/svg+xml', has_preview_image: true })), false);
  assert.equal(showsInline(info({ mime_type: 'image/gif', has_preview_image: false })), false);
  assert.equal(showsInline(info({ mime_type: 'text/plain', has_preview_image: undefined })), false);
  assert.equal(showsInline(info({ mime_type: 'text/html', has_preview_image: true })), false);
});

test('when sizes and urls are formatted, then they read as the reference web app and ids are escaped', () => {
  assert.deepEqual([0, 1023, 1024, 1536, 10 * 1024, 5 * 1024 * 1024, -1].map(formatSize), ['0 B', '1023 B', '1.0 KB', '1.5 KB', '10 KB', '5.0 MB', '']);
  assert.equal(fileUrl('abc'), '/api/v4/files/abc');
  assert.equal(fileUrl('abc', 'preview'), '/api/v4/files/abc/preview');
  assert.equal(fileUrl('abc', 'download'), '/api/v4/files/abc?download=1');
  assert.equal(fileUrl('../x'), '/api/v4/files/..%2Fx');
  assert.deepEqual(filesOf({}), []);
  assert.deepEqual(filesOf({ metadata: { files: [info({})] } }).length, 1);
});

test('when a post has an image and a text file, then the image shows its preview linking to the original and the text file is a download link with its size', () => {
  const html = renderToStaticMarkup(<PostFiles files={[info({ id: 'img1', name: 'chart.png', width: 720, height: 360 }), info({ id: 'txt1', name: 'log.txt', extension: 'txt', mime_type: 'text/plain', has_preview_image: false, size: 2048 })]} />);
  assert.match(html, /<a href="\/api\/v4\/files\/img1" target="_blank" rel="noopener noreferrer"[^>]*><img src="\/api\/v4\/files\/img1\/preview" alt="chart.png" loading="lazy" width="360" height="180"\/><\/a>/);
  assert.match(html, /<a href="\/api\/v4\/files\/txt1\?download=1" download="log.txt">log.txt<\/a> <span class="muted">2.0 KB<\/span>/);
  assert.doesNotMatch(html, /txt1\/preview/);
  assert.equal(renderToStaticMarkup(<PostFiles files={[]} />), '');
});

test('when uploads start, succeed, fail and are removed, then the ready ids keep their order and failures do not use up room', () => {
  let s: readonly PendingUpload[] = [];
  s = uploadsReducer(s, { type: 'started', clientId: 'a', name: 'a.png', size: 1 });
  s = uploadsReducer(s, { type: 'started', clientId: 'b', name: 'b.txt', size: 2 });
  s = uploadsReducer(s, { type: 'started', clientId: 'c', name: 'c.bin', size: 3 });
  assert.equal(anyUploading(s), true);
  assert.equal(roomLeft(s), 7);
  s = uploadsReducer(s, { type: 'succeeded', clientId: 'b', info: info({ id: 'fb' }) });
  s = uploadsReducer(s, { type: 'succeeded', clientId: 'a', info: info({ id: 'fa' }) });
  s = uploadsReducer(s, { type: 'failed', clientId: 'c', error: new Error('too big') });
  assert.deepEqual(readyFileIds(s), ['fa', 'fb']);
  assert.equal(anyUploading(s), false);
  assert.equal(roomLeft(s), 8);
  s = uploadsReducer(s, { type: 'removed', clientId: 'a' });
  s = uploadsReducer(s, { type: 'succeeded', clientId: 'a', info: info({ id: 'late' }) });
  assert.deepEqual(readyFileIds(s), ['fb'], 'an answer for a removed file does not bring it back');
  assert.deepEqual(uploadsReducer(s, { type: 'cleared' }), []);
});

test('when a file is uploaded, then POST /api/v4/files gets channel_id, client_ids and files in that order, and the file info is answered', async () => {
  const server = fakeApi([route('POST', '/api/v4/files', { file_infos: [info({ id: 'new1', name: 'r.txt' })], client_ids: ['cid-1'] }, 201)]);
  try {
    const stored = await uploadFile('chan1', new File(['hello'], 'r.txt', { type: 'text/plain' }), 'cid-1');
    assert.equal(stored.id, 'new1');
    const body = server.seen[0]?.body as FormData;
    assert.ok(body instanceof FormData);
    assert.deepEqual([...body.keys()], ['channel_id', 'client_ids', 'files']);
    assert.equal(body.get('channel_id'), 'chan1');
    assert.equal((body.get('files') as File).name, 'r.txt');
    assert.equal(server.seen[0]?.headers['content-type'], undefined, 'the browser sets the multipart boundary itself');
  } finally {
    server.restore();
  }
});

test('when the server refuses a file as too large, then the upload fails with its 413 AppError and the list says so in words', async () => {
  const message = 'Unable to upload file big.bin. 200 bytes exceeds the maximum allowed 100 bytes.';
  const server = fakeApi([route('POST', '/api/v4/files', { id: 'api.file.upload_file.too_large_detailed.app_error', message, status_code: 413 }, 413)]);
  try {
    const error = await uploadFile('chan1', new File(['x'], 'big.bin'), 'cid').then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 413);
    const html = renderToStaticMarkup(<PendingUploads uploads={[{ clientId: 'c', name: 'big.bin', size: 200, state: 'failed', error }]} onRemove={() => undefined} />);
    assert.ok(html.includes(`<span class="error" role="alert">Not uploaded: ${message}</span>`));
    assert.match(html, /aria-label="Remove big.bin"/);
  } finally {
    server.restore();
  }
});
