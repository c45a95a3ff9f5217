import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IncomingWebhook } from '@slack/webhook';
import { listen, type RunningServer } from '@switchyard/http-kit';
import { httpHarness, identityHeaders, type HttpHarness } from '../../test-support/http-harness';

describe('@slack/webhook IncomingWebhook against /hooks/{key} (loopback)', () => {
  let h: HttpHarness;
  let server: RunningServer;
  let url: string;
  before(async () => {
    h = await httpHarness();
    server = await listen(h.app.handler, 0, '127.0.0.1');
    // Only real sockets from here on: an app injected in-process cannot serve sockets any more.
    const created = await fetch(`http://127.0.0.1:${server.port}/api/v4/hooks/incoming`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...identityHeaders(h.teamAdmin, 'POST', '/api/v4/hooks/incoming') },
      body: JSON.stringify({ channel_id: h.town.id, display_name: 'Slack sender' }),
    });
    assert.equal(created.status, 201);
    url = `http://127.0.0.1:${server.port}/hooks/${((await created.json()) as { id: string }).id}`;
  });
  after(async () => {
    await server.close();
    await h.stop();
  });

  it('when send() is called with a string, then it resolves with text "ok" and the post is queued', async () => {
    const webhook = new IncomingWebhook(url);
    const result = await webhook.send('Deployed *v1.2.3* <!here>');
    assert.deepEqual(result, { text: 'ok' });
    const post = h.bus.commands().at(-1)?.value.payload.post;
    assert.equal(post?.message, 'Deployed *v1.2.3* @here');
  });

  it('when send() carries defaults, attachments and Slack-only fields (blocks, mrkdwn), then they are accepted and attachments kept', async () => {
    h.setConfig((c) => (c.ServiceSettings.EnablePostUsernameOverride = true));
    try {
      const webhook = new IncomingWebhook(url, { username: 'deploy-bot', icon_emoji: ':rocket:' });
      const result = await webhook.send({
        text: 'Build finished',
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'ignored' } }],
        attachments: [{ color: '#36a64f', title: 'main #42', title_link: 'https://ci.example/42', fields: [{ title: 'Duration', value: '3m', short: true }] }],
      });
      assert.deepEqual(result, { text: 'ok' });
      const post = h.bus.commands().at(-1)?.value.payload.post;
      assert.equal(post?.type, 'slack_attachment');
      assert.equal(post?.props.override_username, 'deploy-bot');
      assert.deepEqual((post?.props.attachments as { title: string }[])[0]?.title, 'main #42');
    } finally {
      h.setConfig((c) => (c.ServiceSettings.EnablePostUsernameOverride = false));
    }
  });

  it('when the key is wrong, then send() rejects with the 400 status and the JSON error body', async () => {
    const webhook = new IncomingWebhook(url.replace(/[a-z0-9]{26}$/, 'x'.repeat(26)));
    await assert.rejects(webhook.send('nope'), (error: unknown) => {
      const e = error as { original?: { status?: number; body?: string }; message: string };
      assert.match(e.message, /400/);
      return true;
    });
  });
});
