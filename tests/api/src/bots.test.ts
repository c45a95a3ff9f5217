import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Bot } from '@mattermost/types/bots';
import { expectClientError, newClient } from './support/client';
import { createBot, createUser, createUserSession, issueToken, patchConfig, PASSWORD, roleSet, uniqueName, type AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, assertJson, raw } from './support/http';
import type { Target } from './support/target';

const ID = /^[a-z0-9]{26}$/;
const BOT_MISSING = 'store.sql_bot.get.missing.app_error';

describe('bots', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
  });
  after(() => target?.stop());

  const setCreation = (enabled: boolean) => patchConfig(admin.client, { ServiceSettings: { EnableBotAccountCreation: enabled } });
  const me = (token: string) => raw(target.url, 'GET', '/api/v4/users/me', { token });
  /** A token for a bot (bot tokens work even while personal access tokens are disabled). */
  const botToken = async (botId: string) => (await issueToken(admin.client, botId, 'suite')).token;
  /** The bot as stored, deleted or not. */
  const readBot = async (botId: string): Promise<Bot> => {
    const response = await raw(target.url, 'GET', `/api/v4/bots/${botId}?include_deleted=true`, { token: admin.token });
    assertJson(response, 200);
    return response.json as Bot;
  };

  describe('when bot creation is disabled', () => {
    before(() => setCreation(false));

    it('when the server is fresh, then EnableBotAccountCreation is false', async (t) => {
      if (!target.isolated) return t.skip('shared target: the default may have been changed');
      assert.equal((await admin.client.getConfig()).ServiceSettings.EnableBotAccountCreation, false);
    });

    it('when an admin creates a bot, then 403 api.bot.create_disabled and no bot exists', async () => {
      const username = uniqueName('off');
      await expectClientError(admin.client.createBot({ username }), 403, 'api.bot.create_disabled');
      await expectClientError(admin.client.getUserByUsername(username), 404, 'app.user.get_by_username.app_error');
    });

    it('when a non-admin creates a bot, then the permission error comes first (403 api.context.permissions.app_error)', async () => {
      const user = await createUserSession(target.url, admin.client, 'nobot');
      await expectClientError(user.client.createBot({ username: uniqueName('off') }), 403, 'api.context.permissions.app_error');
    });
  });

  describe('when bot creation is enabled with a config patch', () => {
    before(() => setCreation(true));

    it('when an admin creates a bot, then 201 with the Bot owned by the admin, and a bot user exists', async () => {
      const username = uniqueName('made');
      const response = await raw(target.url, 'POST', '/api/v4/bots', {
        token: admin.token,
        body: { username, display_name: 'Made Bot', description: 'does things' },
      });
      assertJson(response, 201);
      const bot = response.json as Bot;
      assert.match(bot.user_id, ID);
      assert.equal(bot.username, username);
      assert.equal(bot.display_name, 'Made Bot');
      assert.equal(bot.description, 'does things');
      assert.equal(bot.owner_id, admin.user.id);
      assert.equal(bot.delete_at, 0);
      assert.ok(bot.create_at > 0 && bot.update_at > 0);
      const user = await admin.client.getUser(bot.user_id);
      assert.equal(user.is_bot, true);
      assert.equal(user.username, username);
      assert.equal(user.bot_description, 'does things');
      assert.deepEqual(roleSet(user.roles), ['system_user']);
    });

    it('when the bot username breaks the rules, then 400 model.bot.is_valid.username.app_error and nothing is stored', async () => {
      const s = uniqueName('').slice(0, 6);
      const bad = [
        'ab', // too short
        `a${'b'.repeat(22)}`, // 23 characters
        `Up${s}`, // upper case
        `9a${s}`, // starts with a digit
        `_a${s}`, // starts with an underscore
        `a${s}.`, // ends with a dot
        `a ${s}`, // space
        `a${s}+x`, // character outside [a-z0-9._-]
        '',
      ];
      for (const username of bad) {
        const response = await raw(target.url, 'POST', '/api/v4/bots', { token: admin.token, body: { username } });
        assertAppError(response, 400, 'model.bot.is_valid.username.app_error');
        if (username.trim() !== '' && !username.includes(' ')) {
          const lookup = await raw(target.url, 'GET', `/api/v4/users/username/${encodeURIComponent(username.toLowerCase())}`, { token: admin.token });
          // Not stored: unknown (404), or a name the username route itself refuses (400), as the reference.
          if (/^[a-z0-9._-]+$/.test(username.toLowerCase())) assertAppError(lookup, 404, 'app.user.get_by_username.app_error');
          else assertAppError(lookup, 400, 'api.context.invalid_url_param.app_error');
        }
      }
    });

    it('when the bot username follows the rules at the edges, then it is accepted', async () => {
      const s = uniqueName('').slice(0, 8);
      for (const username of [`a${s.slice(0, 2)}`, `a${s}${'x'.repeat(21 - s.length)}`, `a.b-c_${s}`]) {
        const bot = await admin.client.createBot({ username });
        assert.equal(bot.username, username);
      }
    });

    it('when the username is taken by a user, or display name or description are too long, then 400', async () => {
      const user = await createUser(admin.client, 'taken');
      const taken = await raw(target.url, 'POST', '/api/v4/bots', { token: admin.token, body: { username: user.username } });
      assertAppError(taken, 400, 'app.user.save.username_exists.app_error');
      const longName = await raw(target.url, 'POST', '/api/v4/bots', { token: admin.token, body: { username: uniqueName('b'), display_name: 'd'.repeat(65) } });
      assertAppError(longName, 400, /^model\.bot\.is_valid\./);
      const longDescription = await raw(target.url, 'POST', '/api/v4/bots', {
        token: admin.token,
        body: { username: uniqueName('b'), description: 'd'.repeat(1025) },
      });
      assertAppError(longDescription, 400, 'model.bot.is_valid.description.app_error');
    });

    it('when bots are listed and read, then the bot is there; disabled bots only with include_deleted', async () => {
      const bot = await createBot(admin.client, 'list');
      assert.equal((await admin.client.getBot(bot.user_id)).username, bot.username);
      assert.ok((await admin.client.getBots(0, 200)).some((b) => b.user_id === bot.user_id));
      await admin.client.disableBot(bot.user_id);
      assert.ok(!(await admin.client.getBots(0, 200)).some((b) => b.user_id === bot.user_id));
      assert.ok((await admin.client.getBotsIncludeDeleted(0, 200)).some((b) => b.user_id === bot.user_id));
    });

    it('when a bot is patched, then display name, description and username change (the user is renamed too)', async () => {
      const bot = await createBot(admin.client, 'patch');
      const newName = uniqueName('renamed');
      const patched = await admin.client.patchBot(bot.user_id, { username: newName, display_name: 'New Name', description: 'new text' });
      assert.equal(patched.user_id, bot.user_id);
      assert.equal(patched.username, newName);
      assert.equal(patched.display_name, 'New Name');
      assert.equal(patched.description, 'new text');
      assert.equal((await admin.client.getUserByUsername(newName)).id, bot.user_id);
      await expectClientError(admin.client.patchBot(bot.user_id, { username: 'Bad.' }), 400, 'model.bot.is_valid.username.app_error');
      assert.equal((await admin.client.getBot(bot.user_id)).username, newName);
    });

    it('when a bot is disabled, then its token stops at once; enabled again, delete_at is 0', async () => {
      const bot = await createBot(admin.client, 'toggle');
      const token = await botToken(bot.user_id);
      assertJson(await me(token), 200);
      const disabled = await admin.client.disableBot(bot.user_id);
      assert.ok(disabled.delete_at > 0);
      assertAppError(await me(token), 401, 'api.context.session_expired.app_error');
      const enabled = await admin.client.enableBot(bot.user_id);
      assert.equal(enabled.delete_at, 0);
      assert.equal((await admin.client.getUser(bot.user_id)).delete_at, 0);
      assertJson(await me(token), 200); // the token itself was never revoked, only the bot's sessions
    });

    it('when a bot is assigned to another user, then owner_id changes; a bot cannot own a bot (403)', async () => {
      const bot = await createBot(admin.client, 'assign');
      const other = await createBot(admin.client, 'owner');
      const newOwner = await createUser(admin.client, 'newowner');
      const assigned = await admin.client.assignBot(bot.user_id, newOwner.user.id);
      assert.equal(assigned.owner_id, newOwner.user.id);
      await expectClientError(admin.client.assignBot(bot.user_id, other.user_id), 403, 'api.context.permissions.app_error');
      assert.equal((await admin.client.getBot(bot.user_id)).owner_id, newOwner.user.id);
    });

    it('when a user without bot permissions reads or manages a bot, then 404 store.sql_bot.get.missing.app_error (never 403)', async () => {
      const bot = await createBot(admin.client, 'hidden');
      const user = await createUserSession(target.url, admin.client, 'nosee');
      await expectClientError(user.client.getBot(bot.user_id), 404, BOT_MISSING);
      await expectClientError(user.client.patchBot(bot.user_id, { display_name: 'mine now' }), 404, BOT_MISSING);
      await expectClientError(user.client.disableBot(bot.user_id), 404, BOT_MISSING);
      await expectClientError(user.client.getBots(), 403, 'api.context.permissions.app_error');
      assert.equal((await admin.client.getBot(bot.user_id)).display_name, bot.display_name);
    });

    it('when the bot id is unknown, then 404 store.sql_bot.get.missing.app_error', async () => {
      await expectClientError(admin.client.getBot('q'.repeat(26)), 404, BOT_MISSING);
      const human = await createUser(admin.client, 'human');
      await expectClientError(admin.client.getBot(human.user.id), 404, BOT_MISSING);
    });

    it('when a bot tries to log in, then 401 api.user.login.bot_login_forbidden.app_error', async () => {
      const bot = await createBot(admin.client, 'nologin');
      await expectClientError(newClient(target.url).login(bot.username, PASSWORD), 401, 'api.user.login.bot_login_forbidden.app_error');
    });

    it('when a bot tries to create a bot, even as a system admin, then 403 and nothing is stored', async () => {
      const bot = await createBot(admin.client, 'maker');
      const client = newClient(target.url, await botToken(bot.user_id));
      const first = uniqueName('child');
      await expectClientError(client.createBot({ username: first }), 403, 'api.context.permissions.app_error');
      await admin.client.updateUserRoles(bot.user_id, 'system_user system_admin');
      const second = uniqueName('child');
      await expectClientError(client.createBot({ username: second }), 403, 'api.context.permissions.app_error');
      await expectClientError(admin.client.getUserByUsername(first), 404, 'app.user.get_by_username.app_error');
      await expectClientError(admin.client.getUserByUsername(second), 404, 'app.user.get_by_username.app_error');
    });

    it('when a bot gets system_post_all or system_post_all_public, then 200 {"status":"OK"} and the roles are stored', async () => {
      const bot = await createBot(admin.client, 'poster');
      assert.deepEqual(await admin.client.updateUserRoles(bot.user_id, 'system_user system_post_all'), { status: 'OK' });
      assert.deepEqual(roleSet((await admin.client.getUser(bot.user_id)).roles), ['system_post_all', 'system_user']);
      assert.deepEqual(await admin.client.updateUserRoles(bot.user_id, 'system_user system_post_all_public'), { status: 'OK' });
      assert.deepEqual(roleSet((await admin.client.getUser(bot.user_id)).roles), ['system_post_all_public', 'system_user']);
    });

    it('when a bot is converted to a user with a password, then 200 with the User, who can log in', async () => {
      const bot = await createBot(admin.client, 'touser');
      const response = await raw(target.url, 'POST', `/api/v4/bots/${bot.user_id}/convert_to_user`, {
        token: admin.token,
        body: { password: PASSWORD, email: `${bot.username}@example.com` },
      });
      assertJson(response, 200);
      assert.equal(response.json.id, bot.user_id);
      assert.ok(!response.json.is_bot);
      const session = await newClient(target.url).login(bot.username, PASSWORD);
      assert.equal(session.id, bot.user_id);
      await expectClientError(admin.client.getBot(bot.user_id), 404, BOT_MISSING);
    });

    it('when convert_to_user has no password, then 400; with set_system_admin=true the user becomes an admin', async () => {
      const bot = await createBot(admin.client, 'nopass');
      const missing = await raw(target.url, 'POST', `/api/v4/bots/${bot.user_id}/convert_to_user`, { token: admin.token, body: {} });
      assertAppError(missing, 400, 'api.context.invalid_body_param.app_error');
      assert.equal((await admin.client.getUser(bot.user_id)).is_bot, true);
      const promoted = await raw(target.url, 'POST', `/api/v4/bots/${bot.user_id}/convert_to_user?set_system_admin=true`, {
        token: admin.token,
        body: { password: PASSWORD },
      });
      assertJson(promoted, 200);
      assert.ok(roleSet(promoted.json.roles).includes('system_admin'));
    });

    it('when a non-admin converts a bot to a user, then it is refused', async () => {
      const bot = await createBot(admin.client, 'keep');
      const user = await createUserSession(target.url, admin.client, 'conv');
      const response = await raw(target.url, 'POST', `/api/v4/bots/${bot.user_id}/convert_to_user`, { token: user.token, body: { password: PASSWORD } });
      assertAppError(response, 403, 'api.context.permissions.app_error');
      assert.equal((await admin.client.getUser(bot.user_id)).is_bot, true);
    });
  });

  describe('owner deactivation', () => {
    before(() => setCreation(true));

    it('when a bot owner is deactivated, then the owner\'s bots are disabled and their tokens stop; reactivating the owner does not re-enable them', async () => {
      await patchConfig(admin.client, { ServiceSettings: { DisableBotsWhenOwnerIsDeactivated: true } });
      const owner = await createUser(admin.client, 'owner');
      const bot = await createBot(admin.client, 'owned');
      await admin.client.assignBot(bot.user_id, owner.user.id);
      const token = await botToken(bot.user_id);
      assertJson(await me(token), 200);
      await admin.client.updateUserActive(owner.user.id, false);
      assert.ok((await readBot(bot.user_id)).delete_at > 0, 'the bot is disabled');
      assertAppError(await me(token), 401, 'api.context.session_expired.app_error');
      await admin.client.updateUserActive(owner.user.id, true);
      assert.ok((await readBot(bot.user_id)).delete_at > 0, 'the bot stays disabled');
      assertAppError(await me(token), 401, 'api.context.session_expired.app_error');
    });

    it('when DisableBotsWhenOwnerIsDeactivated is off, then the bot keeps working and is listed as orphaned', async () => {
      await patchConfig(admin.client, { ServiceSettings: { DisableBotsWhenOwnerIsDeactivated: false } });
      try {
        const owner = await createUser(admin.client, 'owner');
        const bot = await createBot(admin.client, 'orphan');
        await admin.client.assignBot(bot.user_id, owner.user.id);
        const token = await botToken(bot.user_id);
        await admin.client.updateUserActive(owner.user.id, false);
        assert.equal((await readBot(bot.user_id)).delete_at, 0);
        assertJson(await me(token), 200);
        const orphaned = await admin.client.getBotsOrphaned(0, 200);
        assert.ok(orphaned.some((b) => b.user_id === bot.user_id));
      } finally {
        await patchConfig(admin.client, { ServiceSettings: { DisableBotsWhenOwnerIsDeactivated: true } });
      }
    });
  });

  describe('system bot', () => {
    it('when the server runs, then the system bot switchyard exists as a bot user', async () => {
      const user = await admin.client.getUserByUsername('switchyard');
      assert.equal(user.username, 'switchyard');
      assert.equal(user.is_bot, true);
      assert.equal(user.delete_at, 0);
    });
  });
});
