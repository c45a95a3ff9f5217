import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import type { Post } from '@mattermost/types/posts';
import type { AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, assertJson, raw } from './support/http';
import { newChannel, newTeam, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

const ID = /^[a-z0-9]{26}$/;

describe('ephemeral posts', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let channel: Channel;
  let member: Actor;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    const team = await newTeam(admin);
    channel = await newChannel(admin, team);
    member = await teamMember(target.url, admin, team, 'eph');
    await admin.client.addToChannel(member.id, channel.id);
  });
  after(async () => {
    await target?.stop();
  });

  it('when a system admin posts an ephemeral message, then 201 with a system_ephemeral Post that is not stored', async () => {
    const response = await raw(target.url, 'POST', '/api/v4/posts/ephemeral', {
      token: admin.token,
      body: {
        user_id: member.id,
        post: {
          channel_id: channel.id,
          message: 'only you can see this',
          type: 'custom_whatever',
          props: { attachments: [{ text: 'Choose', actions: [{ name: 'Go', type: 'button', integration: { url: 'http://127.0.0.1:9/act', context: { secret: 'do-not-leak' } } }] }] },
        },
      },
    });
    assertJson(response, 201);
    const post = response.json as Post;
    assert.match(post.id, ID);
    assert.equal(post.type, 'system_ephemeral');
    assert.equal(post.user_id, admin.user.id);
    assert.equal(post.channel_id, channel.id);
    assert.equal(post.message, 'only you can see this');
    assert.ok(Math.abs(post.create_at - Date.now()) < 60_000, 'create_at is now');
    const action = (post.props.attachments as { actions: { id?: string; integration?: unknown }[] }[])[0]?.actions[0];
    assert.match(String(action?.id), ID, 'action ids are generated');
    assert.equal(action?.integration, undefined, 'integrations are stripped');
    assert.ok(!response.text.includes('do-not-leak'));

    assertAppError(await raw(target.url, 'GET', `/api/v4/posts/${post.id}`, { token: admin.token }), 404, 'app.post.get.app_error');
    const list = await raw(target.url, 'GET', `/api/v4/channels/${channel.id}/posts`, { token: admin.token });
    assertJson(list, 200);
    assert.equal((list.json as { order: string[] }).order.includes(post.id), false, 'not in the channel');
  });

  it('when a user without create_post_ephemeral tries, then 403 api.context.permissions.app_error', async () => {
    const response = await raw(target.url, 'POST', '/api/v4/posts/ephemeral', { token: member.token, body: { user_id: member.id, post: { channel_id: channel.id, message: 'x' } } });
    assertAppError(response, 403, 'api.context.permissions.app_error');
  });

  it('when the body is malformed, then 400 and never a 500', async () => {
    for (const body of [{ post: { channel_id: channel.id } }, { user_id: member.id }, { user_id: member.id, post: { message: 'no channel' } }, { user_id: 'bad', post: { channel_id: channel.id } }]) {
      assertAppError(await raw(target.url, 'POST', '/api/v4/posts/ephemeral', { token: admin.token, body }), 400, 'api.context.invalid_body_param.app_error');
    }
    assertAppError(await raw(target.url, 'POST', '/api/v4/posts/ephemeral', { token: admin.token, rawBody: '{"user_id":' }), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await raw(target.url, 'POST', '/api/v4/posts/ephemeral', { body: { user_id: member.id, post: { channel_id: channel.id } } }), 401, 'api.context.session_expired.app_error');
  });
});
