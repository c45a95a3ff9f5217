import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { IncomingWebhook } from '@slack/webhook';
import type { Team } from '@mattermost/types/teams';
import type { Channel } from '@mattermost/types/channels';
import { expectClientError } from './support/client';
import { patchConfig, type AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, raw } from './support/http';
import { newChannel, newTeam, teamMember, type Actor } from './support/posts-fixtures';
import { channelPosts, createIncomingHook, fixtureRequest, readPost, readPosts, senderFixtures, sendToHook, waitForPost, waitForPosts, type IncomingHookJson } from './support/incoming-hooks';
import type { Target } from './support/target';

type Json = Record<string, unknown>;

describe('incoming webhooks (black box, through the gateway)', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let channel: Channel;
  let hook: IncomingHookJson;
  let member: Actor;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    channel = await newChannel({ client: admin.client, token: admin.token, id: admin.user.id, username: admin.user.username }, team);
    hook = await createIncomingHook(target.url, admin.token, { channel_id: channel.id, display_name: 'Suite hook', reaction_notifications: true });
    member = await teamMember(target.url, admin, team, 'ihm');
  });
  after(async () => {
    await target?.stop();
  });

  it('when the official client creates, reads, lists, updates and deletes a hook, then the reference answers come back', async () => {
    const created = await admin.client.createIncomingWebhook({ channel_id: channel.id, display_name: 'Client hook', description: 'd' } as never);
    assert.match(created.id, /^[a-z0-9]{26}$/);
    assert.equal((await admin.client.getIncomingWebhook(created.id)).display_name, 'Client hook');
    const list = await admin.client.getIncomingWebhooks(team.id, 0, 200);
    assert.ok((list as { id: string }[]).some((h) => h.id === created.id));
    const updated = await admin.client.updateIncomingWebhook({ ...created, description: 'changed' });
    assert.equal(updated.description, 'changed');
    await admin.client.removeIncomingWebhook(created.id);
    await expectClientError(admin.client.getIncomingWebhook(created.id), 404, 'app.webhooks.get_incoming.app_error');
  });

  it('when a team member without webhook rights creates a hook, then 403 api.context.permissions.app_error', async () => {
    const res = await raw(target.url, 'POST', '/api/v4/hooks/incoming', { token: member.token, body: { channel_id: channel.id } });
    assertAppError(res, 403, 'api.context.permissions.app_error');
  });

  it('when a text is posted, then 200 text/plain "ok" and the post appears in the channel as the hook owner with the webhook props', async () => {
    const text = `hello from a hook ${Date.now()}`;
    const res = await sendToHook(target.url, hook.id, { text });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/plain');
    assert.equal(res.text, 'ok');
    const post = await readPost(target.url, admin.token, channel.id, (p) => p.message === text);
    assert.equal(post.user_id, admin.user.id);
    assert.equal(post.props.from_webhook, 'true');
    assert.equal(post.props.webhook_display_name, 'Suite hook');
  });

  it('when ?wait=true, then the post ids come back as JSON and can be read in order', async () => {
    const res = await sendToHook(target.url, hook.id, { text: 'waited' }, { query: '?wait=true' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    const ids = (res.json as { status: string; post_ids: string[] }).post_ids;
    assert.equal((res.json as Json).status, 'OK');
    const [post] = await readPosts(target.url, admin.token, channel.id, ids);
    assert.equal(post?.message, 'waited');
  });

  it('when the text is longer than 16383 characters, then consecutive posts appear in order', async () => {
    const text = `${'a'.repeat(16383)}${'b'.repeat(16383)}c`;
    const res = await sendToHook(target.url, hook.id, { text }, { query: '?wait=true' });
    assert.equal(res.status, 200, res.text.slice(0, 300));
    const ids = (res.json as { post_ids: string[] }).post_ids;
    assert.equal(ids.length, 3);
    const posts = await readPosts(target.url, admin.token, channel.id, ids);
    assert.deepEqual(posts.map((p) => p.message.length), [16383, 16383, 1]);
    assert.ok((posts[0]?.create_at ?? 0) < (posts[1]?.create_at ?? 0) && (posts[1]?.create_at ?? 0) < (posts[2]?.create_at ?? 0));
    const newestFirst = (await channelPosts(target.url, admin.token, channel.id)).map((p) => p.id);
    assert.deepEqual(newestFirst.filter((id) => ids.includes(id)), [...ids].reverse());
  });

  it('when the same Idempotency-Key is sent twice, then one post exists and the answer is replayed', async () => {
    const key = `idem-${Date.now()}`;
    const first = await sendToHook(target.url, hook.id, { text: key }, { query: '?wait=true', headers: { 'Idempotency-Key': key } });
    const second = await sendToHook(target.url, hook.id, { text: key }, { query: '?wait=true', headers: { 'Idempotency-Key': key } });
    assert.equal(first.status, 200, first.text);
    assert.equal(second.status, 200, second.text);
    assert.equal(second.text, first.text, 'the answer is replayed byte for byte');
    const postIds = (first.json as { post_ids: string[] }).post_ids;
    assert.equal(postIds.length, 1);
    assert.deepEqual((second.json as { post_ids: string[] }).post_ids, postIds);
    await readPosts(target.url, admin.token, channel.id, postIds);
    // A sentinel through the same hook and channel (posts are created in order per channel): once it is
    // visible, a second copy of the keyed post would be visible too, so the count below is final.
    const sentinel = await sendToHook(target.url, hook.id, { text: `${key}-sentinel` }, { query: '?wait=true' });
    assert.equal(sentinel.status, 200, sentinel.text);
    await readPosts(target.url, admin.token, channel.id, (sentinel.json as { post_ids: string[] }).post_ids);
    const copies = (await channelPosts(target.url, admin.token, channel.id)).filter((p) => p.message === key);
    assert.deepEqual(copies.map((p) => p.id), postIds);
  });

  it('when the errors of the reference happen, then its statuses and ids come back through the gateway', async () => {
    assertAppError(await sendToHook(target.url, 'x'.repeat(26), { text: 'x' }), 400, 'web.incoming_webhook.invalid.app_error');
    assertAppError(await sendToHook(target.url, hook.id, { text: '' }), 400, 'web.incoming_webhook.text.app_error');
    assertAppError(await sendToHook(target.url, hook.id, null, { rawBody: '{"text": "x",,}' }), 400, 'model.incoming_hook.parse_data.app_error');
    assertAppError(await sendToHook(target.url, hook.id, { text: 'x', channel: 'no-such-channel' }), 404, 'web.incoming_webhook.channel.app_error');
    assertAppError(await sendToHook(target.url, hook.id, { text: 'x', channel: '@no-such-user' }), 400, 'web.incoming_webhook.user.app_error');
    assertAppError(await sendToHook(target.url, hook.id, { text: 'x', type: 'system_generic' }), 400, 'api.context.invalid_param.app_error');
    await patchConfig(admin.client, { ServiceSettings: { EnableIncomingWebhooks: false } });
    try {
      assertAppError(await sendToHook(target.url, hook.id, { text: 'x' }), 501, 'web.incoming_webhook.disabled.app_error');
    } finally {
      await patchConfig(admin.client, { ServiceSettings: { EnableIncomingWebhooks: true } });
    }
  });

  it('when channel is @username or a named channel, then the post lands in that DM or channel', async () => {
    const other = await newChannel({ client: admin.client, token: admin.token, id: admin.user.id, username: admin.user.username }, team);
    const toChannel = await sendToHook(target.url, hook.id, { text: 'to other', channel: `#${other.name}` }, { query: '?wait=true' });
    assert.equal(toChannel.status, 200, toChannel.text);
    await readPosts(target.url, admin.token, other.id, (toChannel.json as { post_ids: string[] }).post_ids);
    const toDm = await sendToHook(target.url, hook.id, { text: 'to dm', channel: `@${member.username}` }, { query: '?wait=true' });
    assert.equal(toDm.status, 200, toDm.text);
    const [post] = (toDm.json as { post_ids: string[] }).post_ids;
    const again = await raw(target.url, 'GET', `/api/v4/posts/${post}`, { token: member.token });
    assert.equal(again.status, 200, again.text);
    assert.equal((again.json as { message: string }).message, 'to dm');
  });

  it('when @slack/webhook sends through the gateway, then it resolves with "ok" and the post appears', async () => {
    const text = `slack client ${Date.now()}`;
    const result = await new IncomingWebhook(`${target.url}/hooks/${hook.id}`).send({ text, attachments: [{ title: 'T', text: '<!here>' }] });
    assert.deepEqual(result, { text: 'ok' });
    const post = await readPost(target.url, admin.token, channel.id, (p) => p.message === text);
    assert.equal(post.type, 'slack_attachment');
    assert.equal(((post.props.attachments as Json[])[0] as Json).text, '@here');
  });

  for (const fixture of senderFixtures()) {
    it(`when ${fixture.sender} posts (fixture ${fixture.name}), then the post appears translated`, async () => {
      const request = fixtureRequest(fixture);
      const res = await sendToHook(target.url, hook.id, null, { query: '?wait=true', rawBody: request.rawBody, headers: { 'Content-Type': request.contentType } });
      assert.equal(res.status, 200, res.text.slice(0, 300));
      const ids = (res.json as { post_ids: string[] }).post_ids;
      const [post] = await readPosts(target.url, admin.token, channel.id, ids);
      assert.ok(post);
      assert.equal(post.type, fixture.expect.type);
      assert.equal(post.message, fixture.expect.message);
      const attachment = ((post.props.attachments as Json[] | undefined) ?? [])[0] ?? {};
      if (fixture.expect.attachmentTitle !== undefined) assert.equal(attachment.title, fixture.expect.attachmentTitle);
      if (fixture.expect.attachmentPretext !== undefined) assert.equal(attachment.pretext, fixture.expect.attachmentPretext);
      if (fixture.expect.attachmentTextIncludes !== undefined) assert.ok(String(attachment.text).includes(fixture.expect.attachmentTextIncludes), String(attachment.text));
      if (fixture.expect.fieldValues !== undefined) assert.deepEqual((attachment.fields as Json[]).map((f) => f.value), fixture.expect.fieldValues);
      if (fixture.expect.ts !== undefined) assert.equal(attachment.ts, fixture.expect.ts);
    });
  }

  it('when someone reacts to a hook post with reaction_notifications on, then the owner gets a DM from the system bot naming the emoji and the reactor', async () => {
    const res = await sendToHook(target.url, hook.id, { text: 'react to me' }, { query: '?wait=true' });
    const [postId] = (res.json as { post_ids: string[] }).post_ids as [string];
    await readPosts(target.url, admin.token, channel.id, [postId]);
    await admin.client.addToChannel(member.id, channel.id).catch(() => undefined);
    const reaction = await raw(target.url, 'POST', '/api/v4/reactions', { token: member.token, body: { user_id: member.id, post_id: postId, emoji_name: 'tada' } });
    assert.equal(reaction.status, 200, reaction.text);
    const bot = await raw(target.url, 'GET', '/api/v4/users/username/switchyard', { token: admin.token });
    assert.equal(bot.status, 200, bot.text);
    const botId = (bot.json as { id: string }).id;
    // get-or-create: the same direct channel the notification went to
    const dmId = (await admin.client.createDirectChannel([admin.user.id, botId])).id;
    // Other files on a shared target post into the same admin ↔ bot DM: wait for this reactor's notification.
    const dm = await waitForPost(target.url, admin.token, dmId, (p) => p.message.includes(':tada:') && p.message.includes(`@${member.username}`));
    assert.equal(dm.user_id, botId);
    assert.ok(dm.message.includes(`@${member.username}`), dm.message);
  });

  it('when IncomingWebhookAckMode is queued, then the hook still answers ok and the post appears; an unknown mode is refused', async () => {
    assert.equal(((await admin.client.getConfig()) as unknown as { ServiceSettings: Json }).ServiceSettings.IncomingWebhookAckMode, 'stored');
    const bad = await raw(target.url, 'PUT', '/api/v4/config/patch', { token: admin.token, body: { ServiceSettings: { IncomingWebhookAckMode: 'later' } } });
    assertAppError(bad, 400, 'model.config.is_valid.incoming_webhook_ack_mode.app_error');
    await patchConfig(admin.client, { ServiceSettings: { IncomingWebhookAckMode: 'queued' } });
    try {
      const res = await sendToHook(target.url, hook.id, { text: 'queued mode' }, { query: '?wait=true' });
      assert.equal(res.status, 200, res.text);
      // Queued: the answer may come before posts stored the post (the unit suite holds posts to show it); it appears.
      const [post] = await waitForPosts(target.url, admin.token, channel.id, (res.json as { post_ids: string[] }).post_ids);
      assert.equal(post?.message, 'queued mode');
    } finally {
      await patchConfig(admin.client, { ServiceSettings: { IncomingWebhookAckMode: 'stored' } });
    }
  });
});
