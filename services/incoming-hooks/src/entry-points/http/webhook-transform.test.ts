import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { httpHarness, type HttpHarness } from '../../test-support/http-harness';

const FIXTURES = join(__dirname, '..', '..', '..', 'templates', 'fixtures');
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const json = { 'content-type': 'application/json' };

describe('POST /hooks/{key} with a transform', () => {
  let h: HttpHarness;
  before(async () => {
    h = await httpHarness();
  });
  after(async () => {
    await h.stop();
  });
  const posted = (): { message: string; props: Record<string, unknown>; user_id?: unknown }[] => h.bus.commands().map((c) => c.value.payload.post);

  it('when a built-in template posts, then as its integration\'s bot (the json template and own expressions as the owner); a name held by an ordinary user posts as that user', async () => {
    const gh = await h.createHook({ transform: { template: 'github' } });
    const before = posted().length;
    await h.request('POST', `/hooks/${gh.id}`, { raw: fixture('github/release.published.json'), headers: { ...json, 'x-github-event': 'release' } });
    const bot = [...h.users.users.values()].find((u) => u.username === 'github');
    assert.equal(bot?.isBot, true);
    assert.equal(posted()[before]?.user_id, bot?.id);
    assert.equal(posted()[before]?.props.from_bot, 'true');
    const squatter = h.users.add('sentry');
    const se = await h.createHook({ transform: { template: 'sentry' } });
    await h.request('POST', `/hooks/${se.id}`, { raw: fixture('sentry/event_alert.json'), headers: { ...json, 'sentry-hook-resource': 'event_alert' } });
    assert.equal(posted()[before + 1]?.user_id, squatter.id);
    assert.equal(posted()[before + 1]?.props.from_bot, undefined);
    const plain = await h.createHook({ transform: { template: 'json' } });
    await h.request('POST', `/hooks/${plain.id}`, { raw: '{"a":1}', headers: json });
    assert.equal(posted()[before + 2]?.user_id, plain.user_id);
  });

  it('when GitHub sends a push to a hook with the github template, then one post with the summary, and the Slack-style checks after it', async () => {
    const hook = await h.createHook({ transform: { template: 'github' } });
    const before = posted().length;
    const res = await h.request('POST', `/hooks/${hook.id}`, { raw: fixture('github/push.json'), headers: { ...json, 'x-github-event': 'push' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.body, 'ok');
    const post = posted().slice(before);
    assert.equal(post.length, 1);
    assert.match(post[0]?.message ?? '', /^\[Codertocat\]\(https:\/\/github.com\/Codertocat\) pushed 1 commit to \[master\]/);
    assert.match(post[0]?.message ?? '', /\n- \[6113728\]\(https:\/\/github.com\/Codertocat\/Hello-World\/commit\/6113728f27ae82c7b1a177c8d03f9e96e0adf246\) Initial commit \(Codertocat\)$/);
  });

  it('when the template meets another vendor\'s payload, then 400 api.webhook.transform.app_error with the reason, nothing posted', async () => {
    const hook = await h.createHook({ transform: { template: 'github' } });
    const before = posted().length;
    const res = await h.request('POST', `/hooks/${hook.id}`, { raw: fixture('alertmanager/firing.json'), headers: json });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json<{ id: string }>().id, 'api.webhook.transform.app_error');
    assert.match(res.json<{ detailed_error: string }>().detailed_error, /X-GitHub-Event header is missing/);
    assert.equal(posted().length, before);
  });

  it('when the event is left out by only_events or exclude_events, then 200 ok (and [] with ?wait=true), nothing posted', async () => {
    const only = await h.createHook({ transform: { template: 'github' }, only_events: ['release'] });
    const excluded = await h.createHook({ transform: { template: 'github' }, exclude_events: ['push'] });
    const before = posted().length;
    for (const hook of [only, excluded]) {
      const res = await h.request('POST', `/hooks/${hook.id}`, { raw: fixture('github/push.json'), headers: { ...json, 'x-github-event': 'push' } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.body, 'ok');
      const waited = await h.request('POST', `/hooks/${hook.id}?wait=true`, { raw: fixture('github/push.json'), headers: { ...json, 'x-github-event': 'push' } });
      assert.deepEqual(waited.json(), { status: 'OK', post_ids: [] });
    }
    assert.equal(posted().length, before);
    const release = await h.request('POST', `/hooks/${only.id}`, { raw: fixture('github/release.published.json'), headers: { ...json, 'x-github-event': 'release' } });
    assert.equal(release.statusCode, 200);
    assert.equal(posted().length, before + 1);
  });

  it('when the hook has a secret, then only the vendor\'s correct signature over the raw bytes posts; wrong or missing is 401', async () => {
    const secret = 'It\'s a Secret to Everybody';
    const gh = await h.createHook({ transform: { template: 'github' }, transform_secret: secret });
    const raw = fixture('github/push.json');
    const sig = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
    const before = posted().length;
    const wrong: Record<string, string>[] = [{}, { 'x-hub-signature-256': 'sha256=00' }, { 'x-hub-signature-256': sig.replace(/.$/, '0') }];
    for (const headers of wrong) {
      const res = await h.request('POST', `/hooks/${gh.id}`, { raw, headers: { ...json, 'x-github-event': 'push', ...headers } });
      assert.equal(res.statusCode, 401, JSON.stringify(headers));
      assert.equal(res.json<{ id: string }>().id, 'api.webhook.transform.signature.app_error');
    }
    const tampered = await h.request('POST', `/hooks/${gh.id}`, { raw: raw.replace('Initial commit', 'Evil commit'), headers: { ...json, 'x-github-event': 'push', 'x-hub-signature-256': sig } });
    assert.equal(tampered.statusCode, 401);
    assert.equal(posted().length, before);
    const ok = await h.request('POST', `/hooks/${gh.id}`, { raw, headers: { ...json, 'x-github-event': 'push', 'x-hub-signature-256': sig.toUpperCase().replace('SHA256=', 'sha256=') } });
    assert.equal(ok.statusCode, 200, ok.body);

    const gl = await h.createHook({ transform: { template: 'gitlab' }, transform_secret: 'gl-token' });
    assert.equal((await h.request('POST', `/hooks/${gl.id}`, { raw: fixture('gitlab/push.json'), headers: { ...json, 'x-gitlab-token': 'nope' } })).statusCode, 401);
    assert.equal((await h.request('POST', `/hooks/${gl.id}`, { raw: fixture('gitlab/push.json'), headers: { ...json, 'x-gitlab-token': 'gl-token' } })).statusCode, 200);

    const se = await h.createHook({ transform: { template: 'sentry' }, transform_secret: 'se-secret' });
    const sraw = fixture('sentry/event_alert.json');
    const ssig = createHmac('sha256', 'se-secret').update(sraw).digest('hex');
    assert.equal((await h.request('POST', `/hooks/${se.id}`, { raw: sraw, headers: { ...json, 'sentry-hook-resource': 'event_alert' } })).statusCode, 401);
    assert.equal((await h.request('POST', `/hooks/${se.id}`, { raw: sraw, headers: { ...json, 'sentry-hook-resource': 'event_alert', 'sentry-hook-signature': ssig } })).statusCode, 200);
    assert.equal(posted().length, before + 3);
  });

  it('when a hook has its own expression, then it reads body, headers and query; credentials are not among the headers', async () => {
    const hook = await h.createHook({ transform: { jsonata: '{"text": body.msg & " from " & query.from & " via " & headers."user-agent" & " auth=" & $string($exists(headers.authorization)) & " token=" & $string($exists(headers."x-gitlab-token"))}' } });
    const before = posted().length;
    const res = await h.request('POST', `/hooks/${hook.id}?from=ci`, { raw: '{"msg":"hello"}', headers: { ...json, 'user-agent': 'curl/8', authorization: 'Bearer secret', 'x-gitlab-token': 'tok' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(posted()[before]?.message, 'hello from ci via curl/8 auth=false token=false');
  });

  it('when a body (sent or transformed) has Block Kit blocks, then they are kept in props.blocks; blocks alone make a post; props.blocks from the client is not kept', async () => {
    const plain = await h.createHook();
    const before = posted().length;
    const blocks = [{ type: 'header', text: { type: 'plain_text', text: 'Deploy' } }, { type: 'rich_text', elements: [] }];
    const res = await h.request('POST', `/hooks/${plain.id}`, { raw: JSON.stringify({ blocks, props: { blocks: 'forged' } }), headers: json });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(posted()[before]?.props.blocks, [{ type: 'header', text: { type: 'plain_text', text: 'Deploy' } }]);
    const transformed = await h.createHook({ transform: { jsonata: '{"text": "fallback", "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": body.msg}}]}' } });
    await h.request('POST', `/hooks/${transformed.id}`, { raw: '{"msg":"*hi*"}', headers: json });
    assert.equal(posted()[before + 1]?.message, 'fallback');
    assert.deepEqual(posted()[before + 1]?.props.blocks, [{ type: 'section', text: { type: 'mrkdwn', text: '*hi*' } }]);
  });

  it('when the result is not a usable hook body, then the Slack-style checks answer as for a sent body', async () => {
    const noText = await h.createHook({ transform: { jsonata: '{"username": "x"}' } });
    const res = await h.request('POST', `/hooks/${noText.id}`, { raw: '{}', headers: json });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json<{ id: string }>().id, 'web.incoming_webhook.text.app_error');
    const badType = await h.createHook({ transform: { jsonata: '{"text": 5}' } });
    assert.equal((await h.request('POST', `/hooks/${badType.id}`, { raw: '{}', headers: json })).json<{ id: string }>().id, 'model.incoming_hook.parse_data.app_error');
    const array = await h.createHook({ transform: { jsonata: '[1, 2]' } });
    const arr = await h.request('POST', `/hooks/${array.id}`, { raw: '{}', headers: json });
    assert.equal(arr.json<{ id: string }>().id, 'api.webhook.transform.app_error');
    assert.match(arr.json<{ detailed_error: string }>().detailed_error, /must yield an object/);
    const notJson = await h.request('POST', `/hooks/${array.id}`, { raw: 'not json', headers: json });
    assert.match(notJson.json<{ detailed_error: string }>().detailed_error, /not JSON/);
  });

  it('when the expression is hostile (endless recursion), then 400 with the limit named, and the service answers other hooks meanwhile', async () => {
    const hostile = await h.createHook({ transform: { jsonata: '($f := function($n){ $f($n + 1) }; $f(0))' } });
    const plain = await h.createHook();
    const [bad, good] = await Promise.all([
      h.request('POST', `/hooks/${hostile.id}`, { raw: '{}', headers: json }),
      h.request('POST', `/hooks/${plain.id}`, { raw: '{"text":"still here"}', headers: json }),
    ]);
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json<{ id: string }>().id, 'api.webhook.transform.app_error');
    assert.match(bad.json<{ detailed_error: string }>().detailed_error, /D1011|timeout|stopped/i);
    assert.equal(good.statusCode, 200);
  });
});
