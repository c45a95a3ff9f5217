import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import type { Post } from '@mattermost/types/posts';
import type { AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, raw } from './support/http';
import { newChannel, newTeam } from './support/posts-fixtures';
import { createIncomingHook, readPosts, sendToHook } from './support/incoming-hooks';
import type { Target } from './support/target';

/** The vendors' own sample payloads (services/incoming-hooks/templates/fixtures/SOURCES.md names each source). */
const FIXTURES = join(__dirname, '..', '..', '..', 'services', 'incoming-hooks', 'templates', 'fixtures');
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');

type Attachment = { fallback?: string; color?: string; title?: string; title_link?: string; text?: string; fields?: { title: string; value: string; short: boolean }[] };

interface Case {
  readonly template: string;
  readonly file: string;
  readonly headers: Record<string, string>;
  readonly message: string;
  readonly attachment?: Attachment;
  readonly props?: Record<string, unknown>;
}

const GH = '[Codertocat](https://github.com/Codertocat)';
const HELLO = '[Codertocat/Hello-World](https://github.com/Codertocat/Hello-World)';

const CASES: readonly Case[] = [
  {
    template: 'github', file: 'github/push.json', headers: { 'X-GitHub-Event': 'push' },
    message: `${GH} pushed 1 commit to [master](https://github.com/Codertocat/Hello-World/commit/6113728f27ae82c7b1a177c8d03f9e96e0adf246) in ${HELLO}\n- [6113728](https://github.com/Codertocat/Hello-World/commit/6113728f27ae82c7b1a177c8d03f9e96e0adf246) Initial commit (Codertocat)`,
  },
  {
    template: 'github', file: 'github/pull_request.opened.json', headers: { 'X-GitHub-Event': 'pull_request' },
    message: `${GH} opened pull request [#2 Update the README with new information.](https://github.com/Codertocat/Hello-World/pull/2) in ${HELLO}`,
    attachment: {
      fallback: 'Pull request #2: Update the README with new information.', color: '#28a745', title: '#2 Update the README with new information.',
      title_link: 'https://github.com/Codertocat/Hello-World/pull/2', text: 'This is a pretty simple change that we need to pull into master.',
      fields: [{ title: 'Branch', value: 'changes → master', short: true }, { title: 'Author', value: 'Codertocat', short: true }],
    },
  },
  {
    template: 'github', file: 'github/issues.opened.json', headers: { 'X-GitHub-Event': 'issues' },
    message: `${GH} opened issue [#1 Spelling error in the README file](https://github.com/Codertocat/Hello-World/issues/1) in ${HELLO}`,
    attachment: {
      fallback: 'Issue #1: Spelling error in the README file', color: '#28a745', title: '#1 Spelling error in the README file',
      title_link: 'https://github.com/Codertocat/Hello-World/issues/1', text: 'It looks like you accidently spelled \'commit\' with two \'t\'s.',
      fields: [{ title: 'Labels', value: 'bug', short: true }],
    },
  },
  {
    template: 'github', file: 'github/workflow_run.completed.json', headers: { 'X-GitHub-Event': 'workflow_run' },
    message: ':white_check_mark: Workflow [test](https://github.com/octo-org/octo-repo/actions/runs/289782451) success on master in [octo-org/octo-repo](https://github.com/octo-org/octo-repo)\n[3484a3f](https://github.com/octo-org/octo-repo/commit/3484a3fb816e0859fd6e1cea078d76385ff50625) build(test): check workflow run event payload',
  },
  {
    template: 'github', file: 'github/release.published.json', headers: { 'X-GitHub-Event': 'release' },
    message: `${GH} published release [0.0.1](https://github.com/Codertocat/Hello-World/releases/tag/0.0.1) in ${HELLO}`,
  },
  {
    template: 'gitlab', file: 'gitlab/push.json', headers: { 'X-Gitlab-Event': 'Push Hook' },
    message: 'John Smith pushed 4 commits to [master](http://example.com/mike/diaspora/-/tree/master) in [mike/diaspora](http://example.com/mike/diaspora)\n- [b6568db1](http://example.com/mike/diaspora/commit/b6568db1bc1dcd7f8b4d5a946b0b91f9dacd7327) Update Catalan translation to e38cb41. (Jordi Mallach)\n- [da156088](http://example.com/mike/diaspora/commit/da1560886d4f094c3e6c9ef40349f7d38b5d27d7) fixed readme (GitLab dev user)\n- … and 2 more',
  },
  {
    template: 'gitlab', file: 'gitlab/merge_request.json', headers: { 'X-Gitlab-Event': 'Merge Request Hook' },
    message: 'Administrator opened merge request [!1 MS-Viewport](http://example.com/diaspora/merge_requests/1) in [gitlabhq/gitlab-test](http://example.com/gitlabhq/gitlab-test)',
    attachment: { fallback: 'Merge request !1: MS-Viewport', color: '#1f75cb', title: '!1 MS-Viewport', title_link: 'http://example.com/diaspora/merge_requests/1', text: '', fields: [{ title: 'Branch', value: 'ms-viewport → master', short: true }] },
  },
  {
    template: 'gitlab', file: 'gitlab/pipeline.json', headers: { 'X-Gitlab-Event': 'Pipeline Hook' },
    message: ':white_check_mark: Pipeline [#31](http://example.com/gitlab-org/gitlab-test/-/pipelines/31) success on master in [gitlab-org/gitlab-test](http://192.168.64.1:3005/gitlab-org/gitlab-test) (63 s)\nFailed jobs: test-build',
  },
  {
    template: 'alertmanager', file: 'alertmanager/firing.json', headers: {},
    message: ':fire: **FIRING:1** ProbeFailure (critical)\nBlackBox Probe Failure: https://server.example.org\n- firing: BlackBox Probe Failure: https://server.example.org [alertname=ProbeFailure, instance=https://server.example.org, job=http_checks, monitor=master, severity=critical] ([source](http://prometheus.example.org:9090/graph?g0.expr=probe_success+%3D%3D+0&g0.tab=1))\n[Alertmanager](http://prometheus.example.org:9093)',
    props: { alertmanager_group_key: '{}/{severity="critical"}:{alertname="ProbeFailure"}', alertmanager_status: 'firing' },
  },
  {
    template: 'grafana', file: 'grafana/firing.json', headers: {},
    message: ':fire: **[FIRING:2]  (blue)**\n- firing: **High memory usage** This alert was triggered for zone us-1 ([rule](https://play.grafana.org/alerting/1afz29v7z/edit)) ([silence](https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3DT2%2Cteam%3Dblue%2Czone%3Dus-1))\n- firing: **High CPU usage** This alert was triggered for zone eu-1 ([rule](https://play.grafana.org/alerting/d1rdpdv7k/edit)) ([silence](https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3DT1%2Cteam%3Dblue%2Czone%3Deu-1))',
    props: { grafana_group_key: '{}:{}', grafana_status: 'firing' },
  },
  {
    template: 'sentry', file: 'sentry/event_alert.json', headers: { 'Sentry-Hook-Resource': 'event_alert' },
    message: ':rotating_light: [ReferenceError: heck is not defined](https://sentry.io/organizations/test-org/issues/1117540176/events/9fac2ceed9344f2bbfdd1fdacb0ed9b1/) in `?(<anonymous>)`',
    attachment: {
      fallback: 'Sentry alert: ReferenceError: heck is not defined', color: '#e03e2f', title: 'ReferenceError: heck is not defined',
      title_link: 'https://sentry.io/organizations/test-org/issues/1117540176/events/9fac2ceed9344f2bbfdd1fdacb0ed9b1/', text: 'Alert rule: Very Important Alert Rule!',
      fields: [{ title: 'Level', value: 'error', short: true }, { title: 'Platform', value: 'javascript', short: true }],
    },
  },
];

describe('hook transforms: built-in templates with the vendors\' sample payloads (black box)', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let channel: Channel;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    const team = await newTeam(admin);
    channel = await newChannel({ client: admin.client, token: admin.token, id: admin.user.id, username: admin.user.username }, team);
  });
  after(async () => {
    await target?.stop();
  });

  const send = async (hookId: string, file: string, headers: Record<string, string>): Promise<Post> => {
    const res = await sendToHook(target.url, hookId, undefined, { query: '?wait=true', rawBody: fixture(file), headers: { 'Content-Type': 'application/json', ...headers } });
    assert.equal(res.status, 200, res.text.slice(0, 300));
    const ids = (res.json as { post_ids: string[] }).post_ids;
    assert.equal(ids.length, 1);
    const [post] = await readPosts(target.url, admin.token, channel.id, ids);
    return post as Post;
  };

  for (const c of CASES) {
    it(`when ${c.template} sends ${c.file}, then the post is checked field by field`, async () => {
      const hook = await createIncomingHook(target.url, admin.token, { channel_id: channel.id, display_name: `${c.template} hook`, transform: { template: c.template } });
      const post = await send(hook.id, c.file, c.headers);
      assert.equal(post.message, c.message);
      assert.equal(post.channel_id, channel.id);
      // Posted as the integration's own bot (system-owned, created on first use), not as the hook's owner.
      const author = await raw(target.url, 'GET', `/api/v4/users/${post.user_id}`, { token: admin.token });
      assert.equal((author.json as { username: string }).username, c.template);
      assert.equal((author.json as { is_bot: boolean }).is_bot, true);
      const bot = await raw(target.url, 'GET', `/api/v4/bots/${post.user_id}?include_deleted=true`, { token: admin.token });
      assert.equal(bot.status, 200, bot.text);
      assert.notEqual((bot.json as { owner_id: string }).owner_id, admin.user.id);
      const icon = await raw(target.url, 'GET', `/api/v4/bots/${post.user_id}/icon`, { token: admin.token });
      assert.equal(icon.status, 200, `the integration bot has its icon: ${icon.text.slice(0, 200)}`);
      assert.match(icon.headers.get('content-type') ?? '', /image\/svg\+xml/);
      assert.equal(post.props.from_webhook, 'true');
      assert.equal(post.props.webhook_display_name, `${c.template} hook`);
      for (const [key, value] of Object.entries(c.props ?? {})) assert.deepEqual(post.props[key], value, key);
      if (c.attachment) {
        assert.equal(post.type, 'slack_attachment');
        const [attachment] = post.props.attachments as Attachment[];
        for (const [key, value] of Object.entries(c.attachment)) assert.deepEqual(attachment?.[key as keyof Attachment], value, key);
      } else {
        assert.equal(post.props.attachments, undefined);
      }
    });
  }

  it('when the json template gets any payload, then it is posted pretty-printed in a code block', async () => {
    const hook = await createIncomingHook(target.url, admin.token, { channel_id: channel.id, transform: { template: 'json' } });
    const post = await send(hook.id, 'alertmanager/firing.json', {});
    assert.equal(post.message, `\`\`\`json\n${JSON.stringify(JSON.parse(fixture('alertmanager/firing.json')), null, 2)}\n\`\`\``);
  });

  it('when Alertmanager sends the group resolved, then the resolved post; exclude_events ["resolved"] posts nothing', async () => {
    const resolved = JSON.stringify({ ...JSON.parse(fixture('alertmanager/firing.json')), status: 'resolved', alerts: [{ ...JSON.parse(fixture('alertmanager/firing.json')).alerts[0], status: 'resolved' }] });
    const hook = await createIncomingHook(target.url, admin.token, { channel_id: channel.id, transform: { template: 'alertmanager' } });
    const res = await sendToHook(target.url, hook.id, undefined, { query: '?wait=true', rawBody: resolved, headers: { 'Content-Type': 'application/json' } });
    const [post] = await readPosts(target.url, admin.token, channel.id, (res.json as { post_ids: string[] }).post_ids);
    assert.match(post?.message ?? '', /^:white_check_mark: \*\*RESOLVED:1\*\* ProbeFailure \(critical\)\n/);
    assert.match(post?.message ?? '', /\n- resolved: BlackBox Probe Failure/);
    const quiet = await createIncomingHook(target.url, admin.token, { channel_id: channel.id, transform: { template: 'alertmanager' }, exclude_events: ['resolved'] });
    const filtered = await sendToHook(target.url, quiet.id, undefined, { query: '?wait=true', rawBody: resolved, headers: { 'Content-Type': 'application/json' } });
    assert.equal(filtered.status, 200);
    assert.deepEqual(filtered.json, { status: 'OK', post_ids: [] });
  });

  it('when GitHub signs with the hook\'s secret, then it posts; a wrong signature is 401 and nothing is posted', async () => {
    const secret = `s-${Date.now()}`;
    const hook = await createIncomingHook(target.url, admin.token, { channel_id: channel.id, transform: { template: 'github' }, transform_secret: secret });
    assert.equal(hook.transform_secret, '********************************');
    const body = fixture('github/release.published.json');
    const wrong = await sendToHook(target.url, hook.id, undefined, { rawBody: body, headers: { 'Content-Type': 'application/json', 'X-GitHub-Event': 'release', 'X-Hub-Signature-256': 'sha256=00' } });
    assertAppError(wrong, 401, 'api.webhook.transform.signature.app_error');
    const sig = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    const post = await (async () => {
      const res = await sendToHook(target.url, hook.id, undefined, { query: '?wait=true', rawBody: body, headers: { 'Content-Type': 'application/json', 'X-GitHub-Event': 'release', 'X-Hub-Signature-256': sig } });
      assert.equal(res.status, 200, res.text);
      return (await readPosts(target.url, admin.token, channel.id, (res.json as { post_ids: string[] }).post_ids))[0];
    })();
    assert.match(post?.message ?? '', /published release \[0\.0\.1\]/);
  });

  it('when a template meets another vendor\'s payload or an expression is hostile, then 400 api.webhook.transform.app_error with the reason', async () => {
    const gh = await createIncomingHook(target.url, admin.token, { channel_id: channel.id, transform: { template: 'github' } });
    const wrong = await sendToHook(target.url, gh.id, undefined, { rawBody: fixture('grafana/firing.json'), headers: { 'Content-Type': 'application/json' } });
    assertAppError(wrong, 400, 'api.webhook.transform.app_error');
    assert.match((wrong.json as { detailed_error: string }).detailed_error, /not a GitHub webhook/);
    const hostile = await createIncomingHook(target.url, admin.token, { channel_id: channel.id, transform: { jsonata: '$match($pad("", 40, "a") & "!", /^(a+)+$/)' } });
    const stopped = await sendToHook(target.url, hostile.id, {});
    assertAppError(stopped, 400, 'api.webhook.transform.app_error');
    assert.match((stopped.json as { detailed_error: string }).detailed_error, /did not finish in time/);
    const ping = await raw(target.url, 'GET', '/api/v4/system/ping', {});
    assert.equal(ping.status, 200);
  });

  it('when a Slack-style body has Block Kit blocks, then the post keeps the known ones in props.blocks; a bad known block is 400', async () => {
    const hook = await createIncomingHook(target.url, admin.token, { channel_id: channel.id });
    const blocks = [
      { type: 'header', text: { type: 'plain_text', text: 'Deploy finished' } },
      { type: 'section', text: { type: 'mrkdwn', text: '*prod* is on `v42`' }, fields: [{ type: 'mrkdwn', text: '*By*\nci' }] },
      { type: 'rich_text', elements: [] },
      { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Logs' }, url: 'https://ci.example/42' }] },
    ];
    const res = await sendToHook(target.url, hook.id, { text: 'Deploy finished (fallback)', blocks }, { query: '?wait=true' });
    assert.equal(res.status, 200, res.text);
    const [post] = await readPosts(target.url, admin.token, channel.id, (res.json as { post_ids: string[] }).post_ids);
    assert.equal(post?.message, 'Deploy finished (fallback)');
    assert.deepEqual(post?.props.blocks, [blocks[0], blocks[1], blocks[3]]);
    const bad = await sendToHook(target.url, hook.id, { text: 'x', blocks: [{ type: 'image', image_url: 'javascript:alert(1)', alt_text: 'x' }] });
    assertAppError(bad, 400, 'model.incoming_hook.parse_data.app_error');
  });

  it('when the manager tries a sample with the dry run, then {post, event, filtered} and nothing is posted', async () => {
    const hook = await createIncomingHook(target.url, admin.token, { channel_id: channel.id, transform: { template: 'github' } });
    const res = await raw(target.url, 'POST', `/api/v4/hooks/incoming/${hook.id}/transform/test`, { token: admin.token, body: { body: JSON.parse(fixture('github/push.json')), headers: { 'X-GitHub-Event': 'push' } } });
    assert.equal(res.status, 200, res.text);
    const out = res.json as { post: { text: string }; event: string; filtered: boolean };
    assert.equal(out.event, 'push');
    assert.equal(out.filtered, false);
    assert.equal(out.post.text, CASES[0]?.message);
  });
});
