import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import type { Team } from '@mattermost/types/teams';
import { createBot, createTeam, createUserSession, login } from './support/fixtures';
import { givenIntegrationWorld, type IntegrationWorld } from './support/integration-world';
import { createIncomingHook, sendToHook, waitForPost } from './support/incoming-hooks';
import { assertAppError, assertJson, raw, type RawResponse } from './support/http';
import { asActor, newChannel, outsider, postIn, teamBot, teamMember, type Actor } from './support/posts-fixtures';

type Status = 200 | 201 | 400 | 401 | 403;

/** One caller of the security suite's kinds and what it gets on each new field and route. */
interface Row {
  readonly who: string;
  readonly make: () => Promise<Actor | undefined>;
  /** POST /hooks/outgoing naming the admin's bot, another admin's bot, a human, a disabled bot, another team's bot. */
  readonly bot: readonly [own: Status, others: Status, human: Status, disabled: Status, otherTeam: Status];
  /** POST /hooks/outgoing with the admin-only event types. */
  readonly adminTypes: Status;
  /** POST /hooks/outgoing with signing_algorithm ed25519. */
  readonly ed25519: Status;
  /** GET the admin's ed25519 bot hook (its public key) and its delivery log. */
  readonly read: Status;
  /** GET /api/v4/system/integration_signing_key. */
  readonly signingKey: Status;
}

function expectStatus(response: RawResponse, status: Status, what: string): void {
  if (status === 401) return assertAppError(response, 401, 'api.context.session_expired.app_error');
  if (status === 403) return assertAppError(response, 403, 'api.context.permissions.app_error');
  if (status === 400) return assertAppError(response, 400, /bot_user_id/);
  assert.equal(response.status, status, `${what}: ${response.status} ${response.text.slice(0, 300)}`);
}

describe('authorization matrix of the wave-3 outgoing fields and routes (every role of the security suite)', { timeout: 300_000 }, () => {
  let world: IntegrationWorld;
  let team: Team;
  let channel: Channel;
  let teamAdmin: Actor;
  let adminBot: Actor;
  let othersBot: string;
  let disabledBot: string;
  let foreignBot: string;
  let human: Actor;
  let keyHook: { id: string; token: string; signing_public_key: string };

  before(async () => {
    world = await givenIntegrationWorld({ serviceSettings: { EnableBotAccountCreation: true } });
    // A team whose creator is its team admin (team_admin as the reference grants it), with the admin in it.
    const creator = await createUserSession(world.target.url, world.admin.client, 'tad');
    team = await createTeam(creator.client, 'mx');
    teamAdmin = asActor(creator);
    await world.admin.client.addToTeam(team.id, world.admin.user.id);
    channel = await newChannel(world.admin, team, 'O');
    adminBot = await teamBot(world.target.url, world.admin, team);
    const second = await teamMember(world.target.url, world.admin, team, 'adm2');
    assert.equal((await raw(world.target.url, 'PUT', `/api/v4/users/${second.id}/roles`, { token: world.admin.token, body: { roles: 'system_user system_admin' } })).status, 200);
    // Logged in again: the session carries the roles it was created with.
    const secondAdmin = await login(world.target.url, second.username);
    const secondsBot = await createBot(secondAdmin.client, 'sb');
    await world.admin.client.addToTeam(team.id, secondsBot.user_id);
    othersBot = secondsBot.user_id;
    const off = await createBot(world.admin.client, 'off');
    await world.admin.client.addToTeam(team.id, off.user_id);
    await world.admin.client.disableBot(off.user_id);
    disabledBot = off.user_id;
    foreignBot = (await teamBot(world.target.url, world.admin, world.team)).id;
    human = await teamMember(world.target.url, world.admin, team, 'hum');
    const created = await raw(world.target.url, 'POST', '/api/v4/hooks/outgoing', {
      token: world.admin.token,
      body: { team_id: team.id, bot_user_id: adminBot.id, signing_algorithm: 'ed25519', callback_urls: [`${world.receiver.url}/mx`], event_types: ['posted', 'integration_disabled'] },
    });
    assertJson(created, 201);
    keyHook = created.json as typeof keyHook;
    assert.match(keyHook.signing_public_key, /^whpk_/);
  });
  after(() => world?.stop());

  const rows: Row[] = [
    { who: 'system admin', make: async () => asActor(world.admin), bot: [201, 201, 400, 400, 400], adminTypes: 201, ed25519: 201, read: 200, signingKey: 200 },
    { who: 'team admin (team creator)', make: async () => teamAdmin, bot: [403, 403, 400, 400, 403], adminTypes: 403, ed25519: 201, read: 200, signingKey: 200 },
    { who: 'team member', make: () => teamMember(world.target.url, world.admin, team, 'mem'), bot: [403, 403, 403, 403, 403], adminTypes: 403, ed25519: 403, read: 403, signingKey: 200 },
    { who: "another team's member", make: () => outsider(world.target.url, world.admin), bot: [403, 403, 403, 403, 403], adminTypes: 403, ed25519: 403, read: 403, signingKey: 200 },
    { who: 'bot without extra roles', make: () => teamBot(world.target.url, world.admin, team), bot: [403, 403, 403, 403, 403], adminTypes: 403, ed25519: 403, read: 403, signingKey: 200 },
    { who: 'bot with system_admin', make: () => teamBot(world.target.url, world.admin, team, 'system_admin'), bot: [201, 201, 400, 400, 400], adminTypes: 201, ed25519: 201, read: 200, signingKey: 200 },
    { who: 'anonymous caller', make: async () => undefined, bot: [401, 401, 401, 401, 401], adminTypes: 401, ed25519: 401, read: 401, signingKey: 401 },
  ];

  for (const row of rows) {
    describe(`when the caller is a ${row.who}`, () => {
      let subject: Actor | undefined;
      let token: string | undefined;
      before(async () => {
        subject = await row.make();
        token = subject?.token;
      });
      const create = (body: Record<string, unknown>) =>
        raw(world.target.url, 'POST', '/api/v4/hooks/outgoing', { ...(token ? { token } : {}), body: { team_id: team.id, callback_urls: [`${world.receiver.url}/mx-${Date.now()}`], ...body } });

      it(`when it names the admin's bot, another admin's bot, a human, a disabled bot and another team's bot, then ${row.bot.join(', ')}`, async () => {
        const ids = [adminBot.id, othersBot, human.id, disabledBot, foreignBot];
        for (const [i, botUserId] of ids.entries()) {
          const status = row.bot[i] as Status;
          expectStatus(await create({ bot_user_id: botUserId }), status, `bot_user_id #${i}`);
        }
      });

      it(`when it asks for the admin-only event types, then ${row.adminTypes}; ed25519 signing, then ${row.ed25519}`, async () => {
        const admin = await create({ trigger_words: ['mx'], event_types: ['integration_disabled', 'delivery_dead'] });
        expectStatus(admin, row.adminTypes, 'admin-only types');
        const ed = await create({ trigger_words: ['mx'], signing_algorithm: 'ed25519' });
        expectStatus(ed, row.ed25519, 'ed25519');
        if (row.ed25519 === 201) {
          assert.match((ed.json as { signing_public_key: string }).signing_public_key, /^whpk_/);
          assert.ok(!ed.text.includes('whsk_'), 'the private key is never returned');
        }
      });

      it(`when it reads the admin's ed25519 bot hook and its delivery log, then ${row.read}; never the private key`, async () => {
        const opts = token ? { token } : {};
        const got = await raw(world.target.url, 'GET', `/api/v4/hooks/outgoing/${keyHook.id}`, opts);
        const log = await raw(world.target.url, 'GET', `/api/v4/hooks/outgoing/${keyHook.id}/deliveries`, opts);
        for (const answer of [got, log]) {
          expectStatus(answer, row.read, 'read');
          assert.ok(!answer.text.includes('whsk_'));
          if (row.read !== 200) assert.ok(!answer.text.includes(keyHook.token) && !answer.text.includes(keyHook.signing_public_key), 'nothing of the hook leaks');
        }
        if (row.read === 200) assert.equal((got.json as { signing_public_key: string }).signing_public_key, keyHook.signing_public_key);
      });

      it(`when it reads the integration signing key, then ${row.signingKey}`, async () => {
        const answer = await raw(world.target.url, 'GET', '/api/v4/system/integration_signing_key', token ? { token } : {});
        expectStatus(answer, row.signingKey, 'signing key');
        if (row.signingKey === 200) {
          const key = answer.json as { algorithm: string; public_keys: string[] };
          assert.ok(['hmac-sha256', 'ed25519'].includes(key.algorithm));
          assert.ok(Array.isArray(key.public_keys));
          assert.ok(!answer.text.includes('whsec_') && !answer.text.includes('whsk_'), 'no secret in the answer');
        }
      });
    });
  }

  it("when any caller's session comes along with one hook's key on another hook's post or a user's post, then 404 and the post is unchanged", async () => {
    const mine = await createIncomingHook(world.target.url, world.admin.token, { channel_id: channel.id });
    const theirs = await createIncomingHook(world.target.url, world.admin.token, { channel_id: channel.id });
    assert.equal((await sendToHook(world.target.url, theirs.id, { text: 'their hook post' })).status, 200);
    const theirPost = await waitForPost(world.target.url, world.admin.token, channel.id, (p) => p.message === 'their hook post');
    const userPost = await postIn(world.admin, channel.id, 'a user post');
    const sessions = [world.admin.token, teamAdmin.token, adminBot.token, undefined];
    for (const token of sessions) {
      for (const postId of [theirPost.id, userPost.id]) {
        const opts = { ...(token ? { token } : {}), body: { text: 'hijacked' } };
        assertAppError(await raw(world.target.url, 'PUT', `/hooks/${mine.id}/posts/${postId}`, opts), 404, 'api.webhook.incoming.post_not_found.app_error');
        assertAppError(await raw(world.target.url, 'DELETE', `/hooks/${mine.id}/posts/${postId}`, token ? { token } : {}), 404, 'api.webhook.incoming.post_not_found.app_error');
      }
    }
    for (const post of [theirPost, userPost]) {
      const read = await raw(world.target.url, 'GET', `/api/v4/posts/${post.id}`, { token: world.admin.token });
      assertJson(read, 200);
      assert.equal((read.json as { message: string }).message, post.message);
    }
  });
});
