import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { httpHarness, type HttpHarness } from '../../test-support/http-harness';

const sample = (name: string): unknown => JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'templates', 'fixtures', name), 'utf8'));

describe('POST /api/v4/hooks/incoming/{hook_id}/transform/test (dry run)', () => {
  let h: HttpHarness;
  before(async () => {
    h = await httpHarness();
  });
  after(async () => {
    await h.stop();
  });
  const url = (id: string): string => `/api/v4/hooks/incoming/${id}/transform/test`;

  it('when the manager tries the hook\'s template on a sample, then 200 {post, event, filtered:false} and nothing is posted', async () => {
    const hook = await h.createHook({ transform: { template: 'gitlab' } });
    const before = h.bus.commands().length;
    const res = await h.request('POST', url(hook.id), { as: h.teamAdmin, body: { body: sample('gitlab/pipeline.json'), headers: { 'X-Gitlab-Event': 'Pipeline Hook' } } });
    assert.equal(res.statusCode, 200, res.body);
    const out = res.json<{ post: { text: string }; event: string; filtered: boolean }>();
    assert.equal(out.event, 'pipeline');
    assert.equal(out.filtered, false);
    assert.match(out.post.text, /^:white_check_mark: Pipeline \[#31\]\(http:\/\/example.com\/gitlab-org\/gitlab-test\/-\/pipelines\/31\) success on master/);
    assert.equal(h.bus.commands().length, before);
  });

  it('when an unsaved expression is given, then it is tried instead; a filtered event says so; a bad one is 400 with the reason', async () => {
    const hook = await h.createHook({ transform: { template: 'github' }, exclude_events: ['ping'] });
    const tried = await h.request('POST', url(hook.id), { as: h.teamAdmin, body: { body: { a: 1 }, headers: {}, transform: { jsonata: '{"text": "a is " & body.a}' } } });
    assert.deepEqual(tried.json(), { post: { text: 'a is 1' }, event: '', filtered: false });
    const filtered = await h.request('POST', url(hook.id), { as: h.teamAdmin, body: { body: { zen: 'x' }, headers: { 'x-github-event': 'ping' } } });
    assert.deepEqual(filtered.json(), { post: null, event: 'ping', filtered: true });
    const bad = await h.request('POST', url(hook.id), { as: h.teamAdmin, body: { body: {}, headers: {}, transform: { jsonata: '{"text": ' } } });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json<{ id: string }>().id, 'api.webhook.transform.app_error');
  });

  it('when someone who cannot manage the hook asks, then 403; an unknown hook 404', async () => {
    const hook = await h.createHook({ transform: { template: 'json' } });
    const res = await h.request('POST', url(hook.id), { as: h.member, body: { body: {}, headers: {} } });
    assert.equal(res.statusCode, 403);
    const missing = await h.request('POST', url('a'.repeat(26)), { as: h.teamAdmin, body: { body: {}, headers: {} } });
    assert.equal(missing.statusCode, 404);
  });
});
