import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { UserProfile } from '@mattermost/types/users';
import { expectClientError, newClient } from './support/client';
import {
  createTeam,
  createUser,
  createUserSession,
  listAllUsers,
  PASSWORD,
  roleSet,
  uniqueName,
  type AdminSession,
} from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, assertJson, raw } from './support/http';
import type { Target } from './support/target';

const ID = /^[a-z0-9]{26}$/;

describe('users', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
  });
  after(() => target?.stop());

  describe('signup and creation', () => {
    it('when the first user signs up on a fresh server, then it is created with 201 as system_admin system_user', (t) => {
      if (!admin.createdHere || !admin.signup) return t.skip('the admin already existed on this shared server');
      assert.equal(admin.signup.status, 201);
      assert.match(admin.signup.json.id, ID);
      assert.deepEqual(roleSet(admin.signup.json.roles), ['system_admin', 'system_user']);
      assert.equal(admin.signup.json.password, undefined);
      assert.deepEqual(roleSet(admin.user.roles), ['system_admin', 'system_user']);
    });

    it('when someone without a session signs up after the first user, then 403 api.user.create_user.no_open_server and nothing is stored', async () => {
      const username = uniqueName('open');
      const response = await raw(target.url, 'POST', '/api/v4/users', {
        body: { username, email: `${username}@example.com`, password: PASSWORD },
      });
      assertAppError(response, 403, 'api.user.create_user.no_open_server');
      await expectClientError(admin.client.getUserByUsername(username), 404, 'app.user.get_by_username.app_error');
    });

    it('when an admin creates a user, then 201 with system_user, the new-user defaults and no password', async () => {
      const username = uniqueName('new');
      const response = await raw(target.url, 'POST', '/api/v4/users', {
        token: admin.token,
        body: { username, email: `${username.toUpperCase()}@Example.com`, password: PASSWORD, nickname: 'Nick' },
      });
      assertJson(response, 201);
      const user = response.json as UserProfile;
      assert.match(user.id, ID);
      assert.equal(user.username, username);
      assert.equal(user.email, `${username}@example.com`, 'email is lower-cased');
      assert.equal(user.nickname, 'Nick');
      assert.deepEqual(roleSet(user.roles), ['system_user']);
      assert.equal(user.delete_at, 0);
      assert.ok(user.create_at > 0);
      assert.equal(user.password, undefined);
      assert.equal(user.locale, 'en');
      assert.deepEqual(user.timezone, { automaticTimezone: '', manualTimezone: '', useAutomaticTimezone: 'true' });
      assert.equal(user.notify_props?.email, 'true');
      assert.equal(user.notify_props?.push, 'mention');
      assert.equal(user.notify_props?.desktop, 'mention');
      assert.equal(user.notify_props?.channel, 'true');
      const fetched = await admin.client.getUser(user.id);
      assert.equal(fetched.username, username);
    });

    it('when an admin creates a user with the official client, then the created user can log in', async () => {
      const created = await createUser(admin.client, 'cli');
      assert.equal(created.user.username, created.username);
      const client = newClient(target.url);
      const me = await client.login(created.username, created.password);
      assert.equal(me.id, created.user.id);
    });

    it('when the username has upper-case letters, then it is stored lower-cased', async () => {
      const username = uniqueName('Mixed');
      const user = await admin.client.createUser({ username, email: `${username.toLowerCase()}@example.com`, password: PASSWORD } as UserProfile, '', '');
      assert.equal(user.username, username.toLowerCase());
    });

    it('when the username or the e-mail is already taken, then 400 app.user.save.username_exists / email_exists and no second user', async () => {
      const taken = await createUser(admin.client, 'dup');
      const sameName = await raw(target.url, 'POST', '/api/v4/users', {
        token: admin.token,
        body: { username: taken.username, email: `other${taken.email}`, password: PASSWORD },
      });
      assertAppError(sameName, 400, 'app.user.save.username_exists.app_error');
      const otherName = uniqueName('dup');
      const sameEmail = await raw(target.url, 'POST', '/api/v4/users', {
        token: admin.token,
        body: { username: otherName, email: taken.email, password: PASSWORD },
      });
      assertAppError(sameEmail, 400, 'app.user.save.email_exists.app_error');
      await expectClientError(admin.client.getUserByUsername(otherName), 404, 'app.user.get_by_username.app_error');
    });

    it('when the same username is created ten times at once, then exactly one 201 and the rest 400 username_exists (never 500)', async () => {
      const username = uniqueName('race');
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          raw(target.url, 'POST', '/api/v4/users', { token: admin.token, body: { username, email: `${username}${i}@example.com`, password: PASSWORD } }),
        ),
      );
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, 400, 400, 400, 400, 400, 400, 400, 400, 400]);
      for (const answer of answers.filter((a) => a.status === 400)) assertAppError(answer, 400, 'app.user.save.username_exists.app_error');
      const found = await admin.client.getProfilesByUsernames([username]);
      assert.equal(found.length, 1);
    });

    it('when the username is not valid, then 400 model.user.is_valid.username.app_error', async () => {
      for (const username of ['all', 'has space', 'semi;colon', 'x'.repeat(65), '']) {
        const response = await raw(target.url, 'POST', '/api/v4/users', {
          token: admin.token,
          body: { username, email: `${uniqueName('bad')}@example.com`, password: PASSWORD },
        });
        assertAppError(response, 400, 'model.user.is_valid.username.app_error');
      }
    });

    it('when the e-mail or the password is not valid, then 400 with a model.user.is_valid id', async () => {
      const badEmail = await raw(target.url, 'POST', '/api/v4/users', {
        token: admin.token,
        body: { username: uniqueName(), email: 'not-an-email', password: PASSWORD },
      });
      assertAppError(badEmail, 400, 'model.user.is_valid.email.app_error');
      const shortPassword = await raw(target.url, 'POST', '/api/v4/users', {
        token: admin.token,
        body: { username: uniqueName(), email: `${uniqueName()}@example.com`, password: 'short' },
      });
      assertAppError(shortPassword, 400, /^model\.user\.is_valid\.pwd/);
    });
  });

  describe('listing and filters', () => {
    it('when GET /users has no per_page, then 60 users; per_page over 200 gives 200; pages do not overlap', async () => {
      const have = (await listAllUsers(target.url, admin.token)).length;
      const missing = Math.max(0, 205 - have);
      for (let i = 0; i < missing; i += 10) {
        await Promise.all(Array.from({ length: Math.min(10, missing - i) }, () => createUser(admin.client, 'pg')));
      }
      const byDefault = await raw(target.url, 'GET', '/api/v4/users', { token: admin.token });
      assertJson(byDefault, 200);
      assert.equal(byDefault.json.length, 60, 'default per_page is 60');
      const clamped = await raw(target.url, 'GET', '/api/v4/users?per_page=1000', { token: admin.token });
      assert.equal(clamped.json.length, 200, 'per_page is clamped to 200');
      const invalid = await raw(target.url, 'GET', '/api/v4/users?per_page=abc&page=-3', { token: admin.token });
      assert.equal(invalid.status, 200);
      assert.equal(invalid.json.length, 60, 'an invalid per_page becomes 60');
      const page0 = await admin.client.getProfiles(0, 50);
      const page1 = await admin.client.getProfiles(1, 50);
      assert.equal(page0.length, 50);
      assert.equal(page1.length, 50);
      const ids0 = new Set(page0.map((u) => u.id));
      assert.ok(page1.every((u) => !ids0.has(u.id)), 'page 1 shares no user with page 0');
      assert.deepEqual(
        invalid.json.map((u: UserProfile) => u.id),
        byDefault.json.map((u: UserProfile) => u.id),
        'a negative page becomes page 0',
      );
    });

    it('when in_team / not_in_team / without_team is given, then the lists follow team membership', async () => {
      const team = await createTeam(admin.client);
      const member1 = await createUser(admin.client, 'in');
      const member2 = await createUser(admin.client, 'in');
      const loner = await createUser(admin.client, 'out');
      await admin.client.addToTeam(team.id, member1.user.id);
      await admin.client.addToTeam(team.id, member2.user.id);

      const inTeam = await admin.client.getProfilesInTeam(team.id, 0, 200);
      assert.deepEqual(inTeam.map((u) => u.id).sort(), [admin.user.id, member1.user.id, member2.user.id].sort());

      const notInTeam = await listAllUsers(target.url, admin.token, { not_in_team: team.id });
      const notInIds = new Set(notInTeam.map((u) => u.id));
      assert.ok(notInIds.has(loner.user.id));
      assert.ok(!notInIds.has(member1.user.id) && !notInIds.has(admin.user.id));

      const firstPage = await admin.client.getProfilesNotInTeam(team.id, false, 0, 200);
      assert.ok(firstPage.every((u) => u.id !== member1.user.id && u.id !== member2.user.id));

      const withoutAll = new Set((await listAllUsers(target.url, admin.token, { without_team: 'true' })).map((u) => u.id));
      assert.ok(withoutAll.has(loner.user.id), 'without_team=true lists a user in no team');
      assert.ok(!withoutAll.has(member2.user.id) && !withoutAll.has(admin.user.id), 'without_team=true leaves team members out');

      // The official client sends without_team=1 (the reference parses booleans with strconv.ParseBool).
      const withoutTeam = await admin.client.getProfilesWithoutTeam(0, 200);
      assert.ok(
        withoutTeam.every((u) => u.id !== member1.user.id && u.id !== admin.user.id),
        'getProfilesWithoutTeam (without_team=1) leaves team members out',
      );
    });

    it('when active / inactive is given, then only active / deactivated users are listed', async () => {
      const active = await createUser(admin.client, 'act');
      const gone = await createUser(admin.client, 'gone');
      await admin.client.updateUserActive(gone.user.id, false);
      const inactiveIds = new Set((await listAllUsers(target.url, admin.token, { inactive: 'true' })).map((u) => u.id));
      assert.ok(inactiveIds.has(gone.user.id));
      assert.ok(!inactiveIds.has(active.user.id));
      const activeIds = new Set((await listAllUsers(target.url, admin.token, { active: 'true' })).map((u) => u.id));
      assert.ok(activeIds.has(active.user.id));
      assert.ok(!activeIds.has(gone.user.id));
      const everyone = new Set((await listAllUsers(target.url, admin.token)).map((u) => u.id));
      assert.ok(everyone.has(gone.user.id) && everyone.has(active.user.id), 'no filter lists both');
    });

    it('when role is given, then only users holding that role are listed', async () => {
      const plain = await createUser(admin.client, 'plain');
      const admins = await listAllUsers(target.url, admin.token, { role: 'system_admin' });
      assert.ok(admins.some((u) => u.id === admin.user.id));
      assert.ok(admins.every((u) => roleSet(u.roles).includes('system_admin')));
      assert.ok(!admins.some((u) => u.id === plain.user.id));
    });

    it('when an ordinary user lists users, then every entry is sanitised for others', async () => {
      const viewer = await createUserSession(target.url, admin.client, 'lister');
      const listed = await viewer.client.getProfiles(0, 200);
      assert.ok(listed.length > 1);
      for (const user of listed) {
        assert.equal(user.password, undefined, user.username);
        assert.equal((user as unknown as Record<string, unknown>).mfa_secret, undefined, user.username);
        if (user.id !== viewer.user.id) {
          assert.ok(user.notify_props === undefined || Object.keys(user.notify_props).length === 0, `${user.username}: notify_props emptied`);
        }
      }
    });

    it('when a request has no session, then GET /users is 401 api.context.session_expired.app_error', async () => {
      assertAppError(await raw(target.url, 'GET', '/api/v4/users'), 401, 'api.context.session_expired.app_error');
    });
  });

  describe('lookups', () => {
    it('when a user is fetched by id by another user, then it is sanitised for others', async () => {
      const viewer = await createUserSession(target.url, admin.client, 'view');
      const other = await createUser(admin.client, 'other');
      const seen = await viewer.client.getUser(other.user.id);
      assert.equal(seen.id, other.user.id);
      assert.equal(seen.username, other.username);
      assert.equal(seen.email, other.email, 'ShowEmailAddress defaults to true');
      assert.equal(seen.password, undefined);
      assert.equal((seen as unknown as Record<string, unknown>).mfa_secret, undefined);
      assert.ok(seen.notify_props === undefined || Object.keys(seen.notify_props).length === 0, 'notify_props is emptied');
      assert.ok(!seen.auth_service, 'auth_service is empty for non-admins');
    });

    it('when the id is unknown or malformed, then 404 app.user.missing_account.const or 400 api.context.invalid_url_param.app_error', async () => {
      await expectClientError(admin.client.getUser('a'.repeat(26)), 404, 'app.user.missing_account.const');
      assertAppError(await raw(target.url, 'GET', '/api/v4/users/not-an-id', { token: admin.token }), 400, 'api.context.invalid_url_param.app_error');
    });

    it('when a user is fetched by username, then it is found; an unknown username is 404', async () => {
      const created = await createUser(admin.client, 'byname');
      const found = await admin.client.getUserByUsername(created.username);
      assert.equal(found.id, created.user.id);
      await expectClientError(admin.client.getUserByUsername(uniqueName('nobody')), 404, 'app.user.get_by_username.app_error');
    });

    it('when users are fetched by ids, then known ids are returned and unknown ones skipped; an empty list is 400', async () => {
      const a = await createUser(admin.client, 'ids');
      const b = await createUser(admin.client, 'ids');
      const found = await admin.client.getProfilesByIds([a.user.id, b.user.id, 'z'.repeat(26)]);
      assert.deepEqual(found.map((u) => u.id).sort(), [a.user.id, b.user.id].sort());
      assertAppError(await raw(target.url, 'POST', '/api/v4/users/ids', { token: admin.token, body: [] }), 400, 'api.context.invalid_body_param.app_error');
    });

    it('when users are fetched by usernames, then those users are returned', async () => {
      const a = await createUser(admin.client, 'names');
      const b = await createUser(admin.client, 'names');
      const found = await admin.client.getProfilesByUsernames([a.username, b.username, uniqueName('nobody')]);
      assert.deepEqual(found.map((u) => u.username).sort(), [a.username, b.username].sort());
    });

    it('when a user asks for me, then the self view has no password, mfa_secret or last_login and an empty auth_data', async () => {
      const session = await createUserSession(target.url, admin.client, 'me');
      const me = await session.client.getMe();
      assert.equal(me.id, session.user.id);
      assert.equal(me.email, session.email);
      assert.equal(me.password, undefined);
      assert.equal((me as unknown as Record<string, unknown>).mfa_secret, undefined);
      assert.equal((me as unknown as Record<string, unknown>).last_login, undefined);
      assert.equal(me.auth_data, '');
      assert.ok(me.notify_props && me.notify_props.email === 'true', 'the self view keeps notify_props');
    });
  });

  describe('deactivation and roles', () => {
    it('when an admin deactivates and reactivates a user, then delete_at follows and both answer {"status":"OK"}', async () => {
      const created = await createUser(admin.client, 'deact');
      assert.deepEqual(await admin.client.updateUserActive(created.user.id, false), { status: 'OK' });
      assert.ok((await admin.client.getUser(created.user.id)).delete_at > 0);
      assert.deepEqual(await admin.client.updateUserActive(created.user.id, true), { status: 'OK' });
      assert.equal((await admin.client.getUser(created.user.id)).delete_at, 0);
    });

    it('when an admin deletes a user, then the user is soft-deactivated, not removed', async () => {
      const created = await createUser(admin.client, 'del');
      const response = await raw(target.url, 'DELETE', `/api/v4/users/${created.user.id}`, { token: admin.token });
      assertJson(response, 200);
      assert.deepEqual(response.json, { status: 'OK' });
      const after = await admin.client.getUser(created.user.id);
      assert.ok(after.delete_at > 0);
    });

    it('when a non-admin tries to deactivate someone else, then 403 api.user.update_active.permissions.app_error', async () => {
      const actor = await createUserSession(target.url, admin.client, 'actor');
      const victim = await createUser(admin.client, 'victim');
      await expectClientError(actor.client.updateUserActive(victim.user.id, false), 403, 'api.user.update_active.permissions.app_error');
      assert.equal((await admin.client.getUser(victim.user.id)).delete_at, 0);
    });

    it('when an admin sets system_post_all or system_post_all_public, then 200 {"status":"OK"} and the roles are stored', async () => {
      const created = await createUser(admin.client, 'roles');
      assert.deepEqual(await admin.client.updateUserRoles(created.user.id, 'system_user system_post_all'), { status: 'OK' });
      assert.deepEqual(roleSet((await admin.client.getUser(created.user.id)).roles), ['system_post_all', 'system_user']);
      const response = await raw(target.url, 'PUT', `/api/v4/users/${created.user.id}/roles`, {
        token: admin.token,
        body: { roles: 'system_user system_post_all_public' },
      });
      assertJson(response, 200);
      assert.deepEqual(response.json, { status: 'OK' });
      assert.deepEqual(roleSet((await admin.client.getUser(created.user.id)).roles), ['system_post_all_public', 'system_user']);
    });

    it('when a signed-in user is promoted to system_admin and demoted again, then its existing session follows at once', async () => {
      const session = await createUserSession(target.url, admin.client, 'promo');
      await expectClientError(session.client.getConfig(), 403, 'api.context.permissions.app_error');
      await admin.client.updateUserRoles(session.user.id, 'system_user system_admin');
      const config = await session.client.getConfig();
      assert.equal(typeof config.ServiceSettings, 'object', 'the same session now has admin rights');
      await admin.client.updateUserRoles(session.user.id, 'system_user');
      await expectClientError(session.client.getConfig(), 403, 'api.context.permissions.app_error');
    });

    it('when the roles name an unknown role, then 400 and the roles are unchanged', async () => {
      const created = await createUser(admin.client, 'badrole');
      await expectClientError(admin.client.updateUserRoles(created.user.id, 'system_user no_such_role'), 400, 'app.role.check_roles_exist.role_not_found');
      assert.deepEqual(roleSet((await admin.client.getUser(created.user.id)).roles), ['system_user']);
    });

    it('when a non-admin changes roles, then 403 api.context.permissions.app_error', async () => {
      const actor = await createUserSession(target.url, admin.client, 'climber');
      await expectClientError(actor.client.updateUserRoles(actor.user.id, 'system_user system_admin'), 403, 'api.context.permissions.app_error');
      assert.deepEqual(roleSet((await admin.client.getUser(actor.user.id)).roles), ['system_user']);
    });
  });

  describe('convert to bot', () => {
    it('when an admin converts a user to a bot, then 200 with the Bot and the user is a bot that cannot log in', async () => {
      const created = await createUser(admin.client, 'conv');
      const response = await raw(target.url, 'POST', `/api/v4/users/${created.user.id}/convert_to_bot`, { token: admin.token });
      assertJson(response, 200);
      assert.equal(response.json.user_id, created.user.id);
      assert.equal(response.json.username, created.username);
      assert.ok('owner_id' in response.json);
      const user = await admin.client.getUser(created.user.id);
      assert.equal(user.is_bot, true);
      await expectClientError(newClient(target.url).login(created.username, created.password), 401, 'api.user.login.bot_login_forbidden.app_error');
      const bot = await admin.client.getBot(created.user.id);
      assert.equal(bot.user_id, created.user.id);
    });

    it('when a non-admin converts a user to a bot, then 403 api.context.permissions.app_error and nothing changes', async () => {
      const actor = await createUserSession(target.url, admin.client, 'convx');
      const response = await raw(target.url, 'POST', `/api/v4/users/${actor.user.id}/convert_to_bot`, { token: actor.token });
      assertAppError(response, 403, 'api.context.permissions.app_error');
      assert.ok(!(await admin.client.getUser(actor.user.id)).is_bot);
    });
  });
});
