import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { httpHarness, type HttpHarness } from '../../test-support/http-harness';

const MASK = '********************************';

describe('incoming hook transform fields (transform, only_events, exclude_events, transform_secret)', () => {
  let h: HttpHarness;
  before(async () => {
    h = await httpHarness();
  });
  after(async () => {
    await h.stop();
  });

  it('when a hook is created with a template, events and a secret, then they are shown with the secret masked', async () => {
    const hook = await h.createHook({ transform: { template: 'github' }, only_events: ['push', 'release', 'push'], exclude_events: ['ping'], transform_secret: 'gh-secret' });
    assert.deepEqual(hook.transform, { template: 'github' });
    assert.deepEqual(hook.only_events, ['push', 'release']);
    assert.deepEqual(hook.exclude_events, ['ping']);
    assert.equal(hook.transform_secret, MASK);
    const read = await h.request('GET', `/api/v4/hooks/incoming/${hook.id}`, { as: h.teamAdmin });
    assert.equal(read.json<Record<string, unknown>>().transform_secret, MASK);
    assert.doesNotMatch(read.body, /gh-secret/);
  });

  it('when a PUT leaves the fields out or sends the mask back, then they are kept; "" clears the secret and null the transform', async () => {
    const hook = await h.createHook({ transform: { jsonata: '{"text": body.msg}' }, only_events: ['a'], transform_secret: 'keep-me' });
    const { transform: _t, only_events: _o, exclude_events: _e, transform_secret: _s, ...reference } = hook;
    const kept = await h.request('PUT', `/api/v4/hooks/incoming/${hook.id}`, { as: h.teamAdmin, body: { ...reference, display_name: 'renamed' } });
    assert.equal(kept.statusCode, 201, kept.body);
    assert.deepEqual(kept.json<Record<string, unknown>>().transform, { jsonata: '{"text": body.msg}' });
    assert.deepEqual(kept.json<Record<string, unknown>>().only_events, ['a']);
    assert.equal(kept.json<Record<string, unknown>>().transform_secret, MASK);
    const masked = await h.request('PUT', `/api/v4/hooks/incoming/${hook.id}`, { as: h.teamAdmin, body: { ...hook } });
    assert.equal(masked.json<Record<string, unknown>>().transform_secret, MASK);
    const cleared = await h.request('PUT', `/api/v4/hooks/incoming/${hook.id}`, { as: h.teamAdmin, body: { ...hook, transform: null, only_events: [], transform_secret: '' } });
    assert.deepEqual(cleared.json<Record<string, unknown>>().transform, null);
    assert.deepEqual(cleared.json<Record<string, unknown>>().only_events, []);
    assert.equal(cleared.json<Record<string, unknown>>().transform_secret, '');
  });

  it('when the template is unknown or the expression does not compile, then 400 api.webhook.transform.app_error naming the reason', async () => {
    const cases: [unknown, RegExp][] = [
      [{ template: 'bitbucket' }, /unknown template "bitbucket"/],
      [{ jsonata: '{"text": body.(' }, /does not compile/],
      [{ jsonata: '   ' }, /empty/],
      [{ jsonata: `"${'x'.repeat(17_000)}"` }, /longer than/],
    ];
    for (const [transform, reason] of cases) {
      const res = await h.request('POST', '/api/v4/hooks/incoming', { as: h.teamAdmin, body: { channel_id: h.town.id, transform } });
      assert.equal(res.statusCode, 400, res.body);
      const error = res.json<{ id: string; detailed_error: string }>();
      assert.equal(error.id, 'api.webhook.transform.app_error');
      assert.match(error.detailed_error, reason);
    }
  });

  it('when the fields have the wrong shape, then 400 invalid body param, nothing created', async () => {
    for (const extra of [{ transform: { template: 'github', jsonata: 'x' } }, { transform: 'github' }, { only_events: 'push' }, { exclude_events: [1] }, { transform_secret: 5 }]) {
      const res = await h.request('POST', '/api/v4/hooks/incoming', { as: h.teamAdmin, body: { channel_id: h.town.id, ...extra } });
      assert.equal(res.statusCode, 400, JSON.stringify(extra));
      assert.equal(res.json<{ id: string }>().id, 'api.context.invalid_body_param.app_error');
    }
  });

  it('when a plain member tries to set a transform on a hook they cannot manage, then 403 and the hook is unchanged', async () => {
    const hook = await h.createHook({ transform: { template: 'json' } });
    const res = await h.request('PUT', `/api/v4/hooks/incoming/${hook.id}`, { as: h.member, body: { ...hook, transform: { jsonata: '{"text": "pwned"}' } } });
    assert.equal(res.statusCode, 403);
    const read = await h.request('GET', `/api/v4/hooks/incoming/${hook.id}`, { as: h.teamAdmin });
    assert.deepEqual(read.json<Record<string, unknown>>().transform, { template: 'json' });
  });
});
