import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Post } from '@mattermost/types/posts';
import type { Team } from '@mattermost/types/teams';
import type { AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, assertJson, raw } from './support/http';
import { newChannel, newTeam, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

const ID = /^[a-z0-9]{26}$/;

type Json = Record<string, unknown>;
const attachmentsOf = (post: Post): Json[] => post.props.attachments as Json[];
const actionsOf = (attachment: Json | undefined): Json[] => (attachment?.actions ?? []) as Json[];

describe('attachments', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let alice: Actor;
  let channelId: string;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    alice = await teamMember(target.url, admin, team, 'att');
    channelId = (await newChannel(alice, team)).id;
  });
  after(async () => {
    await target?.stop();
  });

  const withAttachments = (attachments: unknown, message = 'with attachments') =>
    raw(target.url, 'POST', '/api/v4/posts', { token: alice.token, body: { channel_id: channelId, message, props: { attachments } } });

  it('when an attachment uses named colours, a long footer and non-string field values, then they are stored normalised', async () => {
    const response = await withAttachments([
      { color: 'good', footer: 'f'.repeat(301), fields: [{ title: 'n', value: 1.5, short: 'true' }, { title: 'b', value: true, short: false }, { title: 's', value: 'text' }] },
      { color: 'warning', footer: 'short' },
      { color: 'danger' },
      { color: '#123456', text: 'hex stays' },
    ]);
    assertJson(response, 201);
    const [first, second, third, fourth] = attachmentsOf(response.json as Post);
    assert.equal(first?.color, '#2eb67d');
    assert.equal(second?.color, '#daa038');
    assert.equal(third?.color, '#a30200');
    assert.equal(fourth?.color, '#123456');
    assert.equal(first?.footer, `${'f'.repeat(300)}…`);
    assert.equal(second?.footer, 'short');
    assert.deepEqual(first?.fields, [
      { title: 'n', value: '1.5', short: true },
      { title: 'b', value: 'true', short: false },
      { title: 's', value: 'text', short: false },
    ]);
  });

  it('when an attachment is sparse, then every attachment key is written as the reference re-serialises it', async () => {
    const [attachment] = attachmentsOf((await withAttachments([{ text: 'only text' }])).json as Post);
    assert.deepEqual(attachment, {
      id: 0,
      fallback: '',
      color: '',
      pretext: '',
      author_name: '',
      author_link: '',
      author_icon: '',
      title: '',
      title_link: '',
      text: 'only text',
      image_url: '',
      thumb_url: '',
      footer: '',
      footer_icon: '',
      fields: null,
      ts: null,
    });
  });

  it('when actions come without ids, then 26-character ids are generated; given ids are kept; integrations never reach a client', async () => {
    const response = await withAttachments([
      {
        text: 'choose',
        ts: 1700000000,
        actions: [
          { name: 'Approve', type: 'button', style: 'primary', integration: { url: 'http://127.0.0.1:9/act', context: { secret: 's3cr3t', n: 1 } } },
          { id: 'mine', name: 'Pick', type: 'select', options: [{ text: 'A', value: 'a' }], integration: { url: 'http://127.0.0.1:9/act', context: {} } },
        ],
      },
    ]);
    assertJson(response, 201);
    const created = response.json as Post;
    assert.ok(!response.text.includes('s3cr3t'), 'the create answer has no integration context');
    assert.ok(!response.text.includes('integration'), 'the create answer has no integration');
    const [approve, pick] = actionsOf(attachmentsOf(created)[0]);
    assert.match(String(approve?.id), ID);
    assert.equal(approve?.name, 'Approve');
    assert.equal(approve?.style, 'primary');
    assert.equal(pick?.id, 'mine');
    assert.deepEqual(pick?.options, [{ text: 'A', value: 'a' }]);
    assert.equal(attachmentsOf(created)[0]?.ts, 1700000000);

    const single = await raw(target.url, 'GET', `/api/v4/posts/${created.id}`, { token: alice.token });
    assertJson(single, 200);
    assert.ok(!single.text.includes('integration') && !single.text.includes('s3cr3t'));
    assert.equal(actionsOf(attachmentsOf(single.json as Post)[0])[0]?.id, approve?.id, 'the generated id is stored, not regenerated per read');

    for (const path of [`/api/v4/channels/${channelId}/posts`, `/api/v4/channels/${channelId}/posts?since=${created.create_at - 1}`, `/api/v4/channels/${channelId}/posts?before=${'a'.repeat(26)}`]) {
      const list = await raw(target.url, 'GET', path, { token: alice.token });
      assertJson(list, 200);
      assert.ok(!list.text.includes('integration') && !list.text.includes('s3cr3t'), `${path} strips integrations`);
    }
    const listed = await alice.client.getPosts(channelId);
    assert.equal(actionsOf(attachmentsOf(listed.posts[created.id] as Post)[0])[0]?.id, approve?.id);
  });

  it('when a post with attachments is patched, then the new attachments are normalised too and the edit is marked', async () => {
    const created = (await withAttachments([{ text: 'v1' }])).json as Post;
    const patched = await alice.client.patchPost({ id: created.id, props: { attachments: [{ text: 'v2', color: 'danger', actions: [{ name: 'Go' }] }] } });
    const [attachment] = attachmentsOf(patched);
    assert.equal(attachment?.color, '#a30200');
    assert.match(String(actionsOf(attachment)[0]?.id), ID);
    assert.ok(patched.edit_at > 0);
  });

  it('when attachments is not an array of objects, then 400 with an error id', async () => {
    assertAppError(await withAttachments('nope'), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await withAttachments([1]), 400, 'api.context.invalid_body_param.app_error');
  });

  it('when an attachment-only post has no message, then it is accepted', async () => {
    const response = await withAttachments([{ text: 'alone', fallback: 'alone' }], '');
    assertJson(response, 201);
    assert.equal((response.json as Post).message, '');
  });
});
