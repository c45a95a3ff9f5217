import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'light-my-request';
import { PostsInternalPaths, Services } from '@switchyard/contracts';
import { serviceCredential } from '@switchyard/http-kit';
import { newId } from '@switchyard/ids';
import { postsHarness, SECRET, type PostsHarness } from '../../test-support/http-harness';

const BOUNDARY = 'hookfilesboundary';

function multipart(files: { name: string; data: string }[]): string {
  return `${files.map((f) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\n\r\n${f.data}\r\n`).join('')}--${BOUNDARY}--\r\n`;
}

/** Every file under `dir` (recursively), staged ones included. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** posts' hook-file uploads under ids the caller names (a hook request retried with its Idempotency-Key). */
describe('POST /internal/v1/hook-files with file_ids', () => {
  let h: PostsHarness;
  let dataDir: string;
  let channelId: string;
  let author: { id: string };
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'posts-hook-files-'));
    h = await postsHarness({ dataDir });
    const teamId = h.team();
    const owner = h.user({ teamId, teamRoles: 'team_user team_admin' });
    author = owner;
    channelId = (await h.channel(owner, teamId)).id;
  });
  after(async () => {
    await h.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const upload = (userId: string, files: { name: string; data: string }[], fileIds?: string) => {
    const url = `${PostsInternalPaths.hookFiles}?channel_id=${channelId}&user_id=${userId}${fileIds !== undefined ? `&file_ids=${fileIds}` : ''}`;
    const headers = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...serviceCredential(Services.incomingHooks, SECRET).headers('POST', url) };
    return inject(h.app.handler, { method: 'POST', url, headers, payload: multipart(files) });
  };

  it('when the same ids come again (a retry), then the first copies are answered and no second copy is stored', async () => {
    const ids = [newId(), newId()];
    const first = await upload(author.id, [{ name: 'a.txt', data: 'first a' }, { name: 'b.txt', data: 'first b' }], ids.join(','));
    assert.equal(first.statusCode, 201, first.body);
    const infos = (JSON.parse(first.body) as { file_infos: { id: string; create_at: number; size: number }[] }).file_infos;
    assert.deepEqual(infos.map((i) => i.id), ids);
    const stored = (await filesUnder(dataDir)).filter((p) => !p.includes('/.tmp/'));
    assert.equal(stored.length, 2);

    const again = await upload(author.id, [{ name: 'a.txt', data: 'second a, longer' }, { name: 'b.txt', data: 'second b' }], ids.join(','));
    assert.equal(again.statusCode, 201, again.body);
    assert.deepEqual(JSON.parse(again.body), JSON.parse(first.body));
    const after = await filesUnder(dataDir);
    assert.deepEqual(after.filter((p) => !p.includes('/.tmp/')).sort(), stored.sort(), 'no second copy');
    assert.deepEqual(after.filter((p) => p.includes('/.tmp/')), [], 'the retry\'s bytes are dropped');
    assert.equal(await readFile(stored.find((p) => p.endsWith('a.txt')) as string, 'utf8'), 'first a');
  });

  it('when one id is new and one was stored, then only the new one is stored, in the order given', async () => {
    const kept = newId();
    assert.equal((await upload(author.id, [{ name: 'k.txt', data: 'kept' }], kept)).statusCode, 201);
    const fresh = newId();
    const res = await upload(author.id, [{ name: 'n.txt', data: 'new' }, { name: 'k.txt', data: 'kept again' }], `${fresh},${kept}`);
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual((JSON.parse(res.body) as { file_infos: { id: string; name: string }[] }).file_infos.map((i) => [i.id, i.name]), [[fresh, 'n.txt'], [kept, 'k.txt']]);
  });

  it('when an id is another uploader\'s, or ids are malformed or miscounted, then 400 and nothing is stored', async () => {
    const taken = newId();
    assert.equal((await upload(author.id, [{ name: 't.txt', data: 'mine' }], taken)).statusCode, 201);
    const before = (await filesUnder(dataDir)).length;
    const other = h.user();
    const stolen = await upload(other.id, [{ name: 't.txt', data: 'theirs' }], taken);
    assert.equal(stolen.statusCode, 400, stolen.body);
    assert.equal((JSON.parse(stolen.body) as { id: string }).id, 'api.file.upload_file.read_request.app_error');
    for (const bad of ['not-an-id', `${newId()},../x`, Array.from({ length: 11 }, () => newId()).join(',')]) {
      const res = await upload(author.id, [{ name: 'x.txt', data: 'x' }], bad);
      assert.equal(res.statusCode, 400, bad);
      assert.equal((JSON.parse(res.body) as { id: string }).id, 'api.context.invalid_url_param.app_error', bad);
    }
    const miscounted = await upload(author.id, [{ name: 'x.txt', data: 'x' }], `${newId()},${newId()}`);
    assert.equal(miscounted.statusCode, 400);
    assert.equal((await filesUnder(dataDir)).length, before);
  });
});
