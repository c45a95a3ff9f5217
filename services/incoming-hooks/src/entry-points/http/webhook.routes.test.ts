import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import { assertError } from '../../test-support/assert-error';
import { httpHarness, type HttpHarness, type Published } from '../../test-support/http-harness';

type Json = Record<string, unknown>;
const errorOf = (res: { json(): unknown }): { id: string; status_code: number } => res.json() as { id: string; status_code: number };

describe('POST /hooks/{key}', () => {
  let h: HttpHarness;
  let hook: Json & { id: string };
  before(async () => {
    h = await httpHarness();
    hook = await h.createHook({ display_name: 'Builds' });
  });
  after(async () => {
    await h.stop();
  });

  const send = async (body: unknown, key = hook.id, headers: Record<string, string> = {}) => h.request('POST', `/hooks/${key}`, { body, headers });
  const lastCommands = (n: number): Published[] => h.bus.commands().slice(-n);
  const lastPost = () => {
    const last = h.bus.commands().at(-1);
    assert.ok(last, 'a command was published');
    return last.value.payload.post;
  };

  it('when a JSON text arrives, then 200 text/plain "ok" and one post.create keyed by the channel, as the owner, ids assigned', async () => {
    const before = h.bus.commands().length;
    const res = await send({ text: 'hello' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/plain');
    assert.equal(res.body, 'ok');
    const commands = h.bus.commands().slice(before);
    assert.equal(commands.length, 1);
    const [command] = commands as [Published];
    assert.equal(command.key, h.town.id);
    assert.equal(command.value.type, 'post.create');
    assert.equal(command.value.payload.source, 'incoming_webhook');
    assert.equal(command.value.payload.hook_id, hook.id);
    assert.equal(command.value.payload.post.user_id, h.teamAdmin.userId);
    assert.match(command.value.payload.post.id, /^[a-z0-9]{26}$/);
    assert.equal(command.value.id, command.value.payload.post.id);
    assert.equal(command.value.payload.post.message, 'hello');
    assert.deepEqual(command.value.payload.post.props, { from_webhook: 'true', webhook_display_name: 'Builds' }, 'the hook key (a secret) never goes into props');
  });

  it('when there is no content type, a form field `payload`, or multipart fields, then each is read as the reference does', async () => {
    const raw = await h.request('POST', `/hooks/${hook.id}`, { raw: '{"text":"raw body"}' });
    assert.equal(raw.statusCode, 200);
    assert.equal(lastPost().message, 'raw body');
    const form = await h.request('POST', `/hooks/${hook.id}`, { raw: `payload=${encodeURIComponent('{"text":"from form"}')}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(form.statusCode, 200);
    assert.equal(lastPost().message, 'from form');
    const boundary = 'XyZ123';
    const multipart = [`--${boundary}`, 'Content-Disposition: form-data; name="Text"', '', 'from multipart', `--${boundary}`, 'Content-Disposition: form-data; name="channel"', '', 'town-square', `--${boundary}--`, ''].join('\r\n');
    const mp = await h.request('POST', `/hooks/${hook.id}`, { raw: multipart, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    assert.equal(mp.statusCode, 200, mp.body);
    assert.equal(lastPost().message, 'from multipart');
    const unknownField = multipart.replace('name="channel"', 'name="bogus"');
    const bad = await h.request('POST', `/hooks/${hook.id}`, { raw: unknownField, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    assert.equal(bad.statusCode, 400);
    assert.equal(errorOf(bad).id, 'api.webhook.incoming.error');
  });

  it('when the content type is malformed, then 400 api.webhook.incoming.error', async () => {
    const res = await h.request('POST', `/hooks/${hook.id}`, { raw: '{"text":"x"}', headers: { 'content-type': 'text/ plain/;;' } });
    assert.equal(res.statusCode, 400);
    assert.equal(errorOf(res).id, 'api.webhook.incoming.error');
  });

  it('when the JSON has literal line breaks in text values, then it is accepted after escaping; other bad JSON is 400 parse_data', async () => {
    const res = await h.request('POST', `/hooks/${hook.id}`, { raw: '{"text":"line one\nline two\tend"}', headers: { 'content-type': 'application/json' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(lastPost().message, 'line one\nline two\tend');
    for (const raw of ['{"text":"x",}', '{"text": "a" "b"}', '[1,2]', '"text"', '{"text":5}', '{"attachments":{}}', '{"props":[]}']) {
      const bad = await h.request('POST', `/hooks/${hook.id}`, { raw, headers: { 'content-type': 'application/json' } });
      assert.equal(bad.statusCode, 400, raw);
      assert.equal(errorOf(bad).id, 'model.incoming_hook.parse_data.app_error', raw);
    }
  });

  it('when the body is missing or null, then 400 web.incoming_webhook.parse.app_error; no text nor attachments is 400 text.app_error', async () => {
    for (const raw of ['', 'null', '  ']) {
      const res = await h.request('POST', `/hooks/${hook.id}`, { raw, headers: { 'content-type': 'application/json' } });
      assert.equal(errorOf(res).id, 'web.incoming_webhook.parse.app_error', JSON.stringify(raw));
      assertError(res, 400, 'web.incoming_webhook.parse.app_error');
    }
    const noText = await send({ text: '' });
    assert.equal(noText.statusCode, 400);
    assert.equal(errorOf(noText).id, 'web.incoming_webhook.text.app_error');
    const emptyAttachments = await send({ attachments: [] });
    assert.equal(emptyAttachments.statusCode, 200, 'an empty attachments array passes');
  });

  it('when the key is unknown or deleted, then 400 web.incoming_webhook.invalid.app_error; a malformed key is 404', async () => {
    const unknown = await send({ text: 'x' }, newId());
    assert.equal(unknown.statusCode, 400);
    assert.equal(errorOf(unknown).id, 'web.incoming_webhook.invalid.app_error');
    const odd = await h.request('POST', '/hooks/abc-def', { body: { text: 'x' } });
    assert.equal(odd.statusCode, 404);
  });

  it('when incoming webhooks are disabled, then 501 web.incoming_webhook.disabled.app_error', async () => {
    h.setConfig((c) => (c.ServiceSettings.EnableIncomingWebhooks = false));
    try {
      const res = await send({ text: 'x' });
      assert.equal(res.statusCode, 501);
      assert.equal(errorOf(res).id, 'web.incoming_webhook.disabled.app_error');
    } finally {
      h.setConfig((c) => (c.ServiceSettings.EnableIncomingWebhooks = true));
    }
  });

  it('when the channel is named (with or without #), then the post goes to that channel of the hook\'s team', async () => {
    const dev = h.channels.add({ team_id: h.teamId, type: 'O', name: 'dev' });
    assert.equal((await send({ text: 'a', channel: 'dev' })).statusCode, 200);
    assert.equal(lastPost().channel_id, dev.id);
    assert.equal((await send({ text: 'b', channel: '#dev' })).statusCode, 200);
    assert.equal(lastPost().channel_id, dev.id);
    const missing = await send({ text: 'c', channel: 'nowhere' });
    assert.equal(missing.statusCode, 404);
    assert.equal(errorOf(missing).id, 'web.incoming_webhook.channel.app_error');
    h.channels.add({ team_id: newId(), type: 'O', name: 'other-team' });
    assert.equal((await send({ text: 'd', channel: 'other-team' })).statusCode, 404);
  });

  it('when the hook\'s own channel is gone, then 404 app.channel.get.existing.app_error; an archived one is 400', async () => {
    const gone = h.channels.add({ team_id: h.teamId, type: 'O', name: 'gone' });
    const doomed = await h.createHook({ channel_id: gone.id });
    h.channels.channels.delete(gone.id);
    const res = await send({ text: 'x' }, doomed.id);
    assert.equal(res.statusCode, 404);
    assert.equal(errorOf(res).id, 'app.channel.get.existing.app_error');
    const old = h.channels.add({ team_id: h.teamId, type: 'O', name: 'old', delete_at: 1 });
    const archived = await h.createHook({ channel_id: old.id });
    const refused = await send({ text: 'x' }, archived.id);
    assert.equal(refused.statusCode, 400);
    assert.equal(errorOf(refused).id, 'api.post.create_post.can_not_post_to_deleted.error');
  });

  it('when a private channel is named, then the owner must be a member (403 web.incoming_webhook.permissions.app_error)', async () => {
    const priv = h.channels.add({ team_id: h.teamId, type: 'P', name: 'priv' });
    const denied = await send({ text: 'x', channel: 'priv' });
    assert.equal(denied.statusCode, 403);
    assert.equal(errorOf(denied).id, 'web.incoming_webhook.permissions.app_error');
    h.channels.join(priv.id, h.teamAdmin.userId);
    assert.equal((await send({ text: 'x', channel: 'priv' })).statusCode, 200);
    assert.equal(lastPost().channel_id, priv.id);
  });

  it('when channel is @username, then the DM of owner and user (oneself included); an unknown user is 400 web.incoming_webhook.user.app_error', async () => {
    assert.equal((await send({ text: 'dm', channel: '@member' })).statusCode, 200);
    const dm = h.channels.channels.get(lastPost().channel_id);
    assert.equal(dm?.type, 'D');
    assert.equal(dm?.name, [h.teamAdmin.userId, h.member.userId].sort().join('__'));
    assert.equal((await send({ text: 'self', channel: '@tadmin' })).statusCode, 200);
    assert.equal(h.channels.channels.get(lastPost().channel_id)?.name, `${h.teamAdmin.userId}__${h.teamAdmin.userId}`);
    const unknown = await send({ text: 'x', channel: '@ghost' });
    assert.equal(unknown.statusCode, 400);
    assert.equal(errorOf(unknown).id, 'web.incoming_webhook.user.app_error');
  });

  it('when channel is <id1>__<id2>, then it posts there only if the owner takes part or is a system admin', async () => {
    const [a, b] = [h.admin.userId, h.member.userId].sort() as [string, string];
    const denied = await send({ text: 'x', channel: `${a}__${b}` });
    assert.equal(denied.statusCode, 403, 'the team admin owner is not part of it');
    assert.equal(errorOf(denied).id, 'web.incoming_webhook.permissions.app_error');
    const adminHook = await h.createHook({}, h.admin);
    const [c, d] = [h.teamAdmin.userId, h.member.userId].sort() as [string, string];
    const ok = await send({ text: 'x', channel: `${c}__${d}` }, adminHook.id);
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(h.channels.channels.get(lastPost().channel_id)?.name, `${c}__${d}`);
    const unknownUsers = await send({ text: 'x', channel: `${newId()}__${newId()}` }, adminHook.id);
    assert.equal(unknownUsers.statusCode, 404);
  });

  it('when the hook is locked, then any other channel is 403 web.incoming_webhook.channel_locked.app_error and its own is fine', async () => {
    const locked = await h.createHook({ channel_locked: true });
    h.channels.add({ team_id: h.teamId, type: 'O', name: 'elsewhere' });
    for (const channel of ['elsewhere', '@member']) {
      const res = await send({ text: 'x', channel }, locked.id);
      assert.equal(res.statusCode, 403, channel);
      assert.equal(errorOf(res).id, 'web.incoming_webhook.channel_locked.app_error');
    }
    assert.equal((await send({ text: 'x', channel: 'town-square' }, locked.id)).statusCode, 200);
  });

  it('when EnforceIncomingWebhookChannelLocking is on (11.2), then an unlocked hook cannot post elsewhere either; off again, it can', async () => {
    const unlocked = await h.createHook({ channel_locked: false });
    h.channels.add({ team_id: h.teamId, type: 'O', name: 'enforced-elsewhere' });
    h.setConfig((c) => (c.ServiceSettings.EnforceIncomingWebhookChannelLocking = true));
    try {
      for (const channel of ['enforced-elsewhere', '@member']) {
        const res = await send({ text: 'x', channel }, unlocked.id);
        assert.equal(res.statusCode, 403, channel);
        assert.equal(errorOf(res).id, 'web.incoming_webhook.channel_locked.app_error');
      }
      assert.equal((await send({ text: 'x' }, unlocked.id)).statusCode, 200, 'its own channel still works');
    } finally {
      h.setConfig((c) => (c.ServiceSettings.EnforceIncomingWebhookChannelLocking = false));
    }
    assert.equal((await send({ text: 'x', channel: 'enforced-elsewhere' }, unlocked.id)).statusCode, 200);
  });

  it('when silent is true (11.10), then the post carries silent_notification; a client prop of that name is dropped; silent with persistent notifications is 400', async () => {
    assert.equal((await send({ text: 'quiet', silent: true })).statusCode, 200);
    assert.equal(lastPost().props.silent_notification, 'true');
    assert.equal((await send({ text: 'loud', props: { silent_notification: 'true' } })).statusCode, 200);
    assert.equal(lastPost().props.silent_notification, undefined);
    assertError(await send({ text: 'x', silent: 'yes' }), 400, 'model.incoming_hook.parse_data.app_error');
    const both = await send({ text: 'x', silent: true, priority: { priority: 'urgent', persistent_notifications: true } });
    assertError(both, 400, 'api.context.invalid_param.app_error');
  });

  it('when the owner cannot be loaded, then 403 web.incoming_webhook.user.app_error', async () => {
    const ghost = h.users.add('ghost-owner', { roles: 'system_user system_admin' });
    const orphan = await h.createHook({ user_id: ghost.id }, h.admin);
    h.users.users.delete(ghost.id);
    const res = await send({ text: 'x' }, orphan.id);
    assert.equal(res.statusCode, 403);
    assert.equal(errorOf(res).id, 'web.incoming_webhook.user.app_error');
  });

  it('when priority lacks priority.priority or type starts with system_, then 400 invalid_param; other types need custom_', async () => {
    const prio = await send({ text: 'x', priority: { requested_ack: true } });
    assert.equal(prio.statusCode, 400);
    assert.equal(errorOf(prio).id, 'api.context.invalid_param.app_error');
    const sys = await send({ text: 'x', type: 'system_join_channel' });
    assert.equal(sys.statusCode, 400);
    assert.equal(errorOf(sys).id, 'api.context.invalid_param.app_error');
    const other = await send({ text: 'x', type: 'weird' });
    assert.equal(other.statusCode, 400);
    assert.equal(errorOf(other).id, 'api.post.create_webhook_post.creating.app_error');
    assert.equal((await send({ text: 'x', type: 'custom_card' })).statusCode, 200);
    assert.equal(lastPost().type, 'custom_card');
    assert.equal((await send({ text: 'x', type: 'weird', attachments: [{ text: 'a' }] })).statusCode, 200, 'type is ignored with attachments');
    assert.equal(lastPost().type, 'slack_attachment');
    assert.equal((await send({ text: 'x', priority: { priority: 'urgent', requested_ack: true } })).statusCode, 200);
    assert.deepEqual(lastPost().priority, { priority: 'urgent', requested_ack: true });
  });

  it('when root_id names a live root post in the hook\'s channel, then every part of the message replies to it (form fields rootid/root_id too)', async () => {
    const root = h.channels.addPost(h.town.id);
    const res = await send({ text: 'x'.repeat(16_400), root_id: root });
    assert.equal(res.statusCode, 200, res.body);
    const parts = lastCommands(2);
    assert.deepEqual(parts.map((c) => c.value.payload.post.root_id), [root, root]);
    const boundary = 'RootB';
    const multipart = [`--${boundary}`, 'Content-Disposition: form-data; name="text"', '', 'reply', `--${boundary}`, 'Content-Disposition: form-data; name="RootId"', '', root, `--${boundary}--`, ''].join('\r\n');
    const mp = await h.request('POST', `/hooks/${hook.id}`, { raw: multipart, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    assert.equal(mp.statusCode, 200, mp.body);
    assert.equal(lastPost().root_id, root);
    assert.equal((await send({ text: 'root post', root_id: null })).statusCode, 200);
    assert.equal(lastPost().root_id, '');
  });

  it('when root_id is malformed, unknown, deleted, in another channel or a reply, then 400 with the reference id and nothing is posted', async () => {
    const other = h.channels.add({ team_id: h.town.team_id, type: 'O', name: 'elsewhere' });
    const root = h.channels.addPost(h.town.id);
    const cases: [string, string][] = [
      ['not-an-id', 'api.context.invalid_param.app_error'],
      [newId(), 'api.post.create_post.root_id.app_error'],
      [h.channels.addPost(h.town.id, '', 5), 'api.post.create_post.root_id.app_error'],
      [h.channels.addPost(other.id), 'api.post.create_post.root_id.app_error'],
      [h.channels.addPost(h.town.id, root), 'api.post.create_post.root_id.app_error'],
    ];
    const before = h.bus.commands().length;
    for (const [rootId, id] of cases) {
      const res = await send({ text: 'reply', root_id: rootId });
      assert.equal(res.statusCode, 400, `${rootId}: ${res.body}`);
      assert.equal(errorOf(res).id, id, rootId);
    }
    assert.equal(h.bus.commands().length, before);
    const typed = await send({ text: 'reply', root_id: 42 });
    assertError(typed, 400, 'model.incoming_hook.parse_data.app_error');
  });

  it('when props are sent, then service keys win, props.card is kept, props.attachments is ignored and override_icon_emoji passes', async () => {
    const res = await send({ text: 'x', props: { card: '**hi**', from_webhook: 'false', override_username: 'evil', override_icon_url: 'x', webhook_display_name: 'evil', attachments: [{ text: 'sneaky' }], override_icon_emoji: 'tada', incoming_webhook_id: 'spoof' } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(lastPost().props, { card: '**hi**', override_icon_emoji: 'tada', from_webhook: 'true', webhook_display_name: 'Builds' });
  });

  it('when overrides are enabled, then override_username defaults to webhook and request values win over the hook\'s', async () => {
    h.setConfig((c) => {
      c.ServiceSettings.EnablePostUsernameOverride = true;
      c.ServiceSettings.EnablePostIconOverride = true;
    });
    try {
      await send({ text: 'x' });
      assert.equal(lastPost().props.override_username, 'webhook');
      assert.equal(lastPost().props.override_icon_url, undefined);
      const named = await h.createHook({ username: 'ci-bot', icon_url: 'https://e.example/hook.png' });
      await send({ text: 'x' }, named.id);
      assert.equal(lastPost().props.override_username, 'ci-bot');
      assert.equal(lastPost().props.override_icon_url, 'https://e.example/hook.png');
      await send({ text: 'x', username: 'deploys', icon_url: 'https://e.example/req.png', icon_emoji: ':rocket:' }, named.id);
      assert.equal(lastPost().props.override_username, 'deploys');
      assert.equal(lastPost().props.override_icon_url, 'https://e.example/req.png');
      assert.equal(lastPost().props.override_icon_emoji, ':rocket:');
    } finally {
      h.setConfig((c) => {
        c.ServiceSettings.EnablePostUsernameOverride = false;
        c.ServiceSettings.EnablePostIconOverride = false;
      });
    }
    await send({ text: 'x', username: 'ignored', icon_url: 'https://e.example/x.png', icon_emoji: 'x' });
    assert.equal(lastPost().props.override_username, undefined);
    assert.equal(lastPost().props.override_icon_url, undefined);
    assert.equal(lastPost().props.override_icon_emoji, undefined);
  });

  it('when the owner is a bot, then from_bot is "true"', async () => {
    const bot = h.users.add('buildbot', { roles: 'system_user', isBot: true });
    const botHook = await h.createHook({ user_id: bot.id }, h.admin);
    await send({ text: 'x' }, botHook.id);
    assert.equal(lastPost().props.from_bot, 'true');
  });

  it('when the text passes 16383 runes, then consecutive posts in order, same key, increasing create_at, attachments on the last', async () => {
    const text = `${'😀'.repeat(16383)}${'b'.repeat(16383)}tail`;
    const res = await h.request('POST', `/hooks/${hook.id}?wait=true`, { body: { text, attachments: [{ text: 'att' }] } });
    assert.equal(res.statusCode, 200);
    const ids = (res.json() as { post_ids: string[] }).post_ids;
    assert.equal(ids.length, 3);
    const parts = lastCommands(3);
    assert.deepEqual(parts.map((p) => p.value.payload.post.id), ids);
    assert.deepEqual(parts.map((p) => p.key), [h.town.id, h.town.id, h.town.id]);
    assert.deepEqual(parts.map((p) => p.value.payload.post.message), ['😀'.repeat(16383), 'b'.repeat(16383), 'tail']);
    const times = parts.map((p) => p.value.payload.post.create_at);
    assert.ok((times[0] as number) < (times[1] as number) && (times[1] as number) < (times[2] as number));
    assert.equal(parts[0]?.value.payload.post.props.attachments, undefined);
    assert.deepEqual(parts[2]?.value.payload.post.props.attachments, [{ text: 'att' }]);
    assert.equal(parts[0]?.value.payload.post.props.from_webhook, 'true');
  });

  it('when Slack markup is sent, then mentions, known user ids and links are translated as the reference does', async () => {
    await send({ text: `<!channel> <!here> <!all> <@${h.member.userId}> <@UNKNOWN1> <https://e.example|site> <https://bare.example> <#C123|general>` });
    assert.equal(lastPost().message, '@channel @here @all @member <@UNKNOWN1> [site](https://e.example) <https://bare.example> [general](#C123)');
    await send({
      attachments: [
        null,
        {
          pretext: '<!here> <https://p.example|pre>',
          text: `<@${h.member.userId}> <https://t.example|text>`,
          title: '<!channel> <https://no.example|title>',
          fallback: '<https://f.example|fb>',
          fields: [null, { title: 'n', value: 42 }, { title: 'b', value: true }, { title: 's', value: '<https://v.example|val>' }],
          ts: 123456,
        },
      ],
    });
    const [attachment] = lastPost().props.attachments as [Json];
    assert.equal(attachment.pretext, '@here [pre](https://p.example)');
    assert.equal(attachment.text, '@member [text](https://t.example)');
    assert.equal(attachment.title, '@channel <https://no.example|title>');
    assert.equal(attachment.fallback, '<https://f.example|fb>');
    assert.deepEqual(attachment.fields, [{ title: 'n', value: '42' }, { title: 'b', value: 'true' }, { title: 's', value: '[val](https://v.example)' }]);
    assert.equal(attachment.ts, 123456);
    assert.equal(lastPost().type, 'slack_attachment');
  });

  it('when ?wait=true, then 200 application/json {"status":"OK","post_ids":[…]} naming the published posts', async () => {
    const res = await h.request('POST', `/hooks/${hook.id}?wait=true`, { body: { text: 'x' } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/json');
    const body = res.json() as { status: string; post_ids: string[] };
    assert.equal(body.status, 'OK');
    assert.deepEqual(body.post_ids, [lastPost().id]);
  });

  it('when the bus refuses the command, then 5xx (never "ok") and nothing is acknowledged', async () => {
    h.bus.fail = new Error('broker down');
    try {
      const res = await send({ text: 'x' });
      assert.ok(res.statusCode >= 500);
      assert.notEqual(res.body, 'ok');
    } finally {
      h.bus.fail = undefined;
    }
  });

  it('when the body is over MaximumPayloadSizeBytes, then 413', async () => {
    h.setConfig((c) => (c.ServiceSettings.MaximumPayloadSizeBytes = 1000));
    try {
      const res = await send({ text: 'x'.repeat(2000) });
      assert.equal(res.statusCode, 413);
      assert.equal(errorOf(res).id, 'api.context.request_body_too_large.app_error');
    } finally {
      h.setConfig((c) => (c.ServiceSettings.MaximumPayloadSizeBytes = 300000));
    }
  });
});
