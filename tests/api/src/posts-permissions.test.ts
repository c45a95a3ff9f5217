import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import type { Post } from '@mattermost/types/posts';
import type { Team } from '@mattermost/types/teams';
import type { AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, assertJson, raw } from './support/http';
import { asActor, newChannel, newTeam, postIn, teamBot, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

type Kind = 'open' | 'private' | 'direct';

interface Row {
  readonly who: string;
  /** Creates the subject; `member` rows join the open and private channels. */
  readonly make: () => Promise<Actor>;
  readonly member: boolean;
  /** Expected answer to `POST /posts` per channel kind (201 or 403). */
  readonly create: Readonly<Record<Kind, 201 | 403>>;
  /** Expected answer when editing and deleting a member's post in the open channel. */
  readonly editOthers: 200 | 403;
}

describe('posts permissions (table-driven)', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let owner: Actor;
  let other: Actor;
  const channels = {} as Record<Kind, Channel>;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    owner = await teamMember(target.url, admin, team, 'own');
    other = await teamMember(target.url, admin, team, 'oth');
    channels.open = await newChannel(owner, team, 'O');
    channels.private = await newChannel(owner, team, 'P');
    channels.direct = await owner.client.createDirectChannel([owner.id, other.id]);
  });
  after(async () => {
    await target?.stop();
  });

  const rows: Row[] = [
    { who: 'channel member', make: () => teamMember(target.url, admin, team, 'mem'), member: true, create: { open: 201, private: 201, direct: 403 }, editOthers: 403 },
    { who: 'team member, not in the channel', make: () => teamMember(target.url, admin, team, 'non'), member: false, create: { open: 403, private: 403, direct: 403 }, editOthers: 403 },
    { who: 'bot in the channel', make: () => teamBot(target.url, admin, team), member: true, create: { open: 201, private: 201, direct: 403 }, editOthers: 403 },
    { who: 'bot without extra roles', make: () => teamBot(target.url, admin, team), member: false, create: { open: 403, private: 403, direct: 403 }, editOthers: 403 },
    { who: 'bot with system_post_all', make: () => teamBot(target.url, admin, team, 'system_post_all'), member: false, create: { open: 201, private: 201, direct: 201 }, editOthers: 403 },
    { who: 'bot with system_post_all_public', make: () => teamBot(target.url, admin, team, 'system_post_all_public'), member: false, create: { open: 201, private: 403, direct: 403 }, editOthers: 403 },
    { who: 'system admin', make: async () => asActor(admin), member: false, create: { open: 201, private: 201, direct: 201 }, editOthers: 200 },
    { who: 'bot with system_admin', make: () => teamBot(target.url, admin, team, 'system_admin'), member: false, create: { open: 201, private: 201, direct: 201 }, editOthers: 200 },
  ];

  for (const row of rows) {
    describe(`when the caller is a ${row.who}`, () => {
      let subject: Actor;
      before(async () => {
        subject = await row.make();
        if (row.member) {
          await owner.client.addToChannel(subject.id, channels.open.id);
          await owner.client.addToChannel(subject.id, channels.private.id);
        }
      });

      for (const kind of ['open', 'private', 'direct'] as const) {
        it(`when it posts in the ${kind} channel, then ${row.create[kind]}`, async () => {
          const response = await raw(target.url, 'POST', '/api/v4/posts', { token: subject.token, body: { channel_id: channels[kind].id, message: `${row.who} in ${kind}` } });
          if (row.create[kind] === 403) {
            assertAppError(response, 403, 'api.context.permissions.app_error');
            return;
          }
          assertJson(response, 201);
          const post = response.json as Post;
          assert.equal(post.user_id, subject.id);
          if (subject.client !== admin.client && row.who.startsWith('bot')) assert.equal(post.props.from_bot, 'true');
        });
      }

      it(`when it edits and deletes another member's post, then ${row.editOthers}`, async () => {
        const post = await postIn(owner, channels.open.id, 'owned');
        const patch = await raw(target.url, 'PUT', `/api/v4/posts/${post.id}/patch`, { token: subject.token, body: { message: `edited by ${row.who}` } });
        const remove = await raw(target.url, 'DELETE', `/api/v4/posts/${post.id}`, { token: subject.token });
        if (row.editOthers === 403) {
          assertAppError(patch, 403, 'api.context.permissions.app_error');
          assertAppError(remove, 403, 'api.context.permissions.app_error');
          assert.equal((await owner.client.getPost(post.id)).message, 'owned');
          return;
        }
        assertJson(patch, 200);
        assert.equal((patch.json as Post).message, `edited by ${row.who}`);
        assertJson(remove, 200);
      });

      if (row.create.open === 201) {
        it('when it edits its own post, then 200', async () => {
          const own = (await raw(target.url, 'POST', '/api/v4/posts', { token: subject.token, body: { channel_id: channels.open.id, message: 'mine' } })).json as Post;
          const patch = await raw(target.url, 'PUT', `/api/v4/posts/${own.id}/patch`, { token: subject.token, body: { message: 'still mine' } });
          assertJson(patch, 200);
          assert.equal((patch.json as Post).message, 'still mine');
        });
      }
    });
  }

  it('when the posting rights of a bot change, then the next post follows the new roles (no restart)', async () => {
    const bot = await teamBot(target.url, admin, team);
    const attempt = () => raw(target.url, 'POST', '/api/v4/posts', { token: bot.token, body: { channel_id: channels.open.id, message: 'now?' } });
    assertAppError(await attempt(), 403, 'api.context.permissions.app_error');
    const roles = await raw(target.url, 'PUT', `/api/v4/users/${bot.id}/roles`, { token: admin.token, body: { roles: 'system_user system_post_all_public' } });
    assert.equal(roles.status, 200);
    // The very next request: users-bots names the changed user and the gateway drops its cached session
    // before answering the role change, so no wait is needed (or allowed).
    assertJson(await attempt(), 201);
  });
});
