import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import type { Team } from '@mattermost/types/teams';
import type { AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { raw, type RawResponse } from './support/http';
import { createIncomingHook, sendToHook, waitForPost, waitForPosts, type IncomingHookJson } from './support/incoming-hooks';
import { newChannel, newTeam, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';
import { TestSocket } from './support/ws';

/**
 * The incoming hook's key is its only secret: whoever knows it posts as the hook's owner. An attacker
 * who can only read the channel looks for it in every answer that carries the hook's posts.
 */
describe('incoming hook key exposure (black box, as a channel reader)', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let channel: Channel;
  let hook: IncomingHookJson;
  let reader: Actor;
  let postIds: string[];

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    channel = await newChannel({ client: admin.client, token: admin.token, id: admin.user.id, username: admin.user.username }, team);
    hook = await createIncomingHook(target.url, admin.token, { channel_id: channel.id, display_name: 'Secret hook', reaction_notifications: true });
    reader = await teamMember(target.url, admin, team, 'hkr');
    await admin.client.addToChannel(reader.id, channel.id);
    // A plain post, one with an attachment, and a long message split into two posts.
    postIds = [];
    for (const body of [{ text: 'plain' }, { text: 'with attachment', attachments: [{ text: 'a', fields: [{ title: 't', value: 'v' }] }] }, { text: 'x'.repeat(16_400) }]) {
      const res = await sendToHook(target.url, hook.id, body, { query: '?wait=true' });
      assert.equal(res.status, 200, res.text);
      postIds.push(...(res.json as { post_ids: string[] }).post_ids);
    }
    assert.equal(postIds.length, 4);
    await waitForPosts(target.url, reader.token, channel.id, postIds);
  });
  after(async () => {
    await target?.stop();
  });

  function assertNoKey(res: RawResponse, what: string): void {
    assert.equal(res.status, 200, `${what}: ${res.status} ${res.text.slice(0, 300)}`);
    assert.ok(!res.text.includes(hook.id), `${what} carries the hook key`);
  }

  it('when a reader fetches each hook post, then the key is in none of them (nor in props.incoming_webhook_id)', async () => {
    for (const id of postIds) {
      const res = await raw(target.url, 'GET', `/api/v4/posts/${id}`, { token: reader.token });
      assertNoKey(res, `GET /posts/${id}`);
      const props = (res.json as { props: Record<string, unknown> }).props;
      assert.equal(props.from_webhook, 'true');
      assert.equal('incoming_webhook_id' in props, false);
    }
  });

  it('when a reader lists the channel and the thread every way a PostList can be asked for, then the key is in none of them', async () => {
    const [first] = postIds as [string];
    const queries = ['', '?per_page=200', '?page=0&per_page=2', `?since=1`, `?before=${postIds[3] ?? ''}`, `?after=${first}`];
    for (const query of queries) assertNoKey(await raw(target.url, 'GET', `/api/v4/channels/${channel.id}/posts${query}`, { token: reader.token }), `GET /channels/{id}/posts${query}`);
    for (const query of ['', '?direction=up&perPage=2', '?collapsedThreads=true', '?skipFetchThreads=true']) assertNoKey(await raw(target.url, 'GET', `/api/v4/posts/${first}/thread${query}`, { token: reader.token }), `GET /posts/{id}/thread${query}`);
  });

  it('when the hook replies in a thread, then the thread and the reply do not carry the key', async () => {
    const [root] = postIds as [string];
    const res = await sendToHook(target.url, hook.id, { text: 'hook reply', root_id: root }, { query: '?wait=true' });
    assert.equal(res.status, 200, res.text);
    const [replyId] = (res.json as { post_ids: string[] }).post_ids as [string];
    await waitForPosts(target.url, reader.token, channel.id, [replyId]);
    assertNoKey(await raw(target.url, 'GET', `/api/v4/posts/${replyId}`, { token: reader.token }), 'GET reply');
    assertNoKey(await raw(target.url, 'GET', `/api/v4/posts/${replyId}/thread`, { token: reader.token }), 'GET reply thread');
  });

  it('when the owner edits or patches a hook post, then the answers do not carry the key, and reaction notifications still find the hook', async () => {
    const [id] = postIds as [string];
    assertNoKey(await raw(target.url, 'PUT', `/api/v4/posts/${id}/patch`, { token: admin.token, body: { message: 'patched' } }), 'PUT /posts/{id}/patch');
    assertNoKey(await raw(target.url, 'PUT', `/api/v4/posts/${id}`, { token: admin.token, body: { id, message: 'edited', props: { from_webhook: 'true' } } }), 'PUT /posts/{id}');
    assertNoKey(await raw(target.url, 'GET', `/api/v4/posts/${id}`, { token: reader.token }), 'GET after edits');
    const reaction = await raw(target.url, 'POST', '/api/v4/reactions', { token: reader.token, body: { user_id: reader.id, post_id: id, emoji_name: 'eyes' } });
    assert.equal(reaction.status, 200, reaction.text);
    const bot = await raw(target.url, 'GET', '/api/v4/users/username/switchyard', { token: admin.token });
    const botId = (bot.json as { id: string }).id;
    const dmId = (await admin.client.createDirectChannel([admin.user.id, botId])).id;
    const dm = await waitForPost(target.url, admin.token, dmId, (p) => p.message.includes(':eyes:') && p.message.includes(id));
    assert.ok(!JSON.stringify(dm).includes(hook.id), 'the notification does not carry the key either');
  });

  it('when a reader listens on the WebSocket, then the posted, post_edited and reaction events of hook posts do not carry the key', async () => {
    const socket = await TestSocket.open(target.url, { token: reader.token });
    try {
      await socket.event('hello');
      const res = await sendToHook(target.url, hook.id, { text: 'watched' }, { query: '?wait=true' });
      assert.equal(res.status, 200, res.text);
      const [id] = (res.json as { post_ids: string[] }).post_ids as [string];
      const posted = await socket.event('posted', (f) => String(f.data?.post ?? '').includes(id));
      assert.ok(!JSON.stringify(posted).includes(hook.id), 'posted carries the key');
      assert.equal((await raw(target.url, 'PUT', `/api/v4/posts/${id}/patch`, { token: admin.token, body: { message: 'watched, edited' } })).status, 200);
      const edited = await socket.event('post_edited', (f) => String(f.data?.post ?? '').includes(id));
      assert.ok(!JSON.stringify(edited).includes(hook.id), 'post_edited carries the key');
      assert.equal((await raw(target.url, 'POST', '/api/v4/reactions', { token: reader.token, body: { user_id: reader.id, post_id: id, emoji_name: 'tada' } })).status, 200);
      const reacted = await socket.event('reaction_added', (f) => String(f.data?.reaction ?? '').includes(id));
      assert.ok(!JSON.stringify(reacted).includes(hook.id), 'reaction_added carries the key');
    } finally {
      socket.close();
    }
  });

  it('when a reader posts props.incoming_webhook_id itself, then it is dropped (no spoofing of a hook post)', async () => {
    const res = await raw(target.url, 'POST', '/api/v4/posts', { token: reader.token, body: { channel_id: channel.id, message: 'spoof', props: { incoming_webhook_id: hook.id } } });
    assert.equal(res.status, 201, res.text);
    assert.ok(!res.text.includes(hook.id));
  });
});
