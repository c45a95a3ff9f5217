import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { UserAccessToken } from '@mattermost/types/users';
import { expectClientError, newClient } from './support/client';
import { createBot, createUser, createUserSession, issueToken, patchConfig, type AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, assertJson, raw } from './support/http';
import type { Target } from './support/target';

const ID = /^[a-z0-9]{26}$/;

describe('personal access tokens', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
  });
  after(async () => {
    if (admin) await patchConfig(admin.client, { ServiceSettings: { EnableUserAccessTokens: false } }).catch(() => undefined);
    await target?.stop();
  });

  const setTokens = (enabled: boolean) => patchConfig(admin.client, { ServiceSettings: { EnableUserAccessTokens: enabled } });
  const me = (token: string) => raw(target.url, 'GET', '/api/v4/users/me', { token });

  describe('when personal access tokens are disabled', () => {
    before(() => setTokens(false));

    it('when the server is fresh, then EnableUserAccessTokens is false', async (t) => {
      if (!target.isolated) return t.skip('shared target: the default may have been changed');
      const config = await admin.client.getConfig();
      assert.equal(config.ServiceSettings.EnableUserAccessTokens, false);
    });

    it('when a human asks for a token, then 501 app.user_access_token.disabled and no token exists', async () => {
      const user = await createUser(admin.client, 'pat');
      await expectClientError(admin.client.createUserAccessToken(user.user.id, 'for a script'), 501, 'app.user_access_token.disabled');
      await expectClientError(admin.client.createUserAccessToken(admin.user.id, 'for me'), 501, 'app.user_access_token.disabled');
      await setTokens(true);
      try {
        assert.deepEqual(await admin.client.getUserAccessTokensForUser(user.user.id), []);
      } finally {
        await setTokens(false);
      }
    });

    it('when a token is made for a bot, then it is issued (bots are exempt) and it authenticates the bot', async () => {
      await patchConfig(admin.client, { ServiceSettings: { EnableBotAccountCreation: true } });
      const bot = await createBot(admin.client, 'patbot');
      const response = await raw(target.url, 'POST', `/api/v4/users/${bot.user_id}/tokens`, { token: admin.token, body: { description: 'bot token' } });
      assertJson(response, 200);
      assert.match(response.json.token, ID);
      const whoami = await me(response.json.token);
      assertJson(whoami, 200);
      assert.equal(whoami.json.id, bot.user_id);
      assert.equal(whoami.json.is_bot, true);
    });
  });

  describe('when personal access tokens are enabled', () => {
    before(() => setTokens(true));

    it('when an admin creates a token for a user, then 200 (not 201) with id, token, user_id, description and is_active', async () => {
      const user = await createUser(admin.client, 'pat');
      const response = await raw(target.url, 'POST', `/api/v4/users/${user.user.id}/tokens`, { token: admin.token, body: { description: 'ci job' } });
      assertJson(response, 200);
      const token = response.json as Required<UserAccessToken>;
      assert.match(token.id, ID);
      assert.match(token.token, ID);
      assert.notEqual(token.token, token.id);
      assert.equal(token.user_id, user.user.id);
      assert.equal(token.description, 'ci job');
      assert.equal(token.is_active, true);
      const whoami = await me(token.token);
      assertJson(whoami, 200);
      assert.equal(whoami.json.id, user.user.id);
    });

    it('when a token is used by the official client, then it acts as the user', async () => {
      const user = await createUser(admin.client, 'patcli');
      const token = await issueToken(admin.client, user.user.id, 'client');
      const client = newClient(target.url, token.token);
      assert.equal((await client.getMe()).id, user.user.id);
    });

    it('when tokens are listed or read, then the secret token value is never shown again', async () => {
      const user = await createUser(admin.client, 'patlist');
      const one = await issueToken(admin.client, user.user.id, 'one');
      const two = await issueToken(admin.client, user.user.id, 'two');
      const listed = await admin.client.getUserAccessTokensForUser(user.user.id);
      assert.deepEqual(listed.map((t) => t.id).sort(), [one.id, two.id].sort());
      assert.ok(listed.every((t) => t.token === undefined && t.user_id === user.user.id && t.is_active === true));
      const read = await admin.client.getUserAccessToken(one.id);
      assert.equal(read.id, one.id);
      assert.equal(read.description, 'one');
      assert.equal(read.token, undefined);
      const all = await admin.client.getUserAccessTokens(0, 200);
      assert.ok(all.some((t) => t.id === two.id), 'GET /users/tokens lists every token for an admin');
    });

    it('when the description is missing or too long, then 400 and no token is made', async () => {
      const user = await createUser(admin.client, 'patdesc');
      const missing = await raw(target.url, 'POST', `/api/v4/users/${user.user.id}/tokens`, { token: admin.token, body: {} });
      assertAppError(missing, 400, 'api.context.invalid_body_param.app_error');
      const long = await raw(target.url, 'POST', `/api/v4/users/${user.user.id}/tokens`, { token: admin.token, body: { description: 'd'.repeat(256) } });
      assertAppError(long, 400, 'model.user_access_token.is_valid.description.app_error');
      assert.deepEqual(await admin.client.getUserAccessTokensForUser(user.user.id), []);
    });

    it('when a token is revoked, then the very next request with it is 401 and it is gone', async () => {
      const user = await createUser(admin.client, 'patrev');
      const token = await issueToken(admin.client, user.user.id, 'revoke me');
      assertJson(await me(token.token), 200);
      assert.deepEqual(await admin.client.revokeUserAccessToken(token.id), { status: 'OK' });
      assertAppError(await me(token.token), 401, 'api.context.session_expired.app_error');
      await expectClientError(admin.client.getUserAccessToken(token.id), 404, 'app.user_access_token.get_by_user.app_error');
    });

    it('when a token is disabled, then the very next request is 401; enabled again, it works', async () => {
      const user = await createUser(admin.client, 'patdis');
      const token = await issueToken(admin.client, user.user.id, 'toggle');
      assertJson(await me(token.token), 200);
      assert.deepEqual(await admin.client.disableUserAccessToken(token.id), { status: 'OK' });
      assertAppError(await me(token.token), 401, 'api.context.session_expired.app_error');
      assert.equal((await admin.client.getUserAccessToken(token.id)).is_active, false);
      assert.deepEqual(await admin.client.enableUserAccessToken(token.id), { status: 'OK' });
      assert.equal((await admin.client.getUserAccessToken(token.id)).is_active, true);
      assertJson(await me(token.token), 200);
    });

    it('when the token owner is deactivated, then the very next request with the token is 401; reactivated, it works', async () => {
      const user = await createUser(admin.client, 'patdeact');
      const token = await issueToken(admin.client, user.user.id, 'owner goes');
      assertJson(await me(token.token), 200);
      await admin.client.updateUserActive(user.user.id, false);
      assertAppError(await me(token.token), 401, 'api.context.session_expired.app_error');
      await admin.client.updateUserActive(user.user.id, true);
      assertJson(await me(token.token), 200);
    });

    it('when the feature is switched off, then human tokens stop at once while bot tokens keep working', async () => {
      await patchConfig(admin.client, { ServiceSettings: { EnableBotAccountCreation: true } });
      const user = await createUser(admin.client, 'patoff');
      const human = await issueToken(admin.client, user.user.id, 'human');
      const bot = await createBot(admin.client, 'patoffbot');
      const botToken = await issueToken(admin.client, bot.user_id, 'bot');
      assertJson(await me(human.token), 200);
      await setTokens(false);
      try {
        assertAppError(await me(human.token), 401, 'api.context.session_expired.app_error');
        assertJson(await me(botToken.token), 200);
      } finally {
        await setTokens(true);
      }
      assertJson(await me(human.token), 200);
    });

    it('when a token has expires_at, then it works until then and is refused afterwards; a negative expires_at is 400', async () => {
      const user = await createUser(admin.client, 'patexp');
      const expiresAt = Date.now() + 3000;
      const response = await raw(target.url, 'POST', `/api/v4/users/${user.user.id}/tokens`, {
        token: admin.token,
        body: { description: 'short lived', expires_at: expiresAt },
      });
      assertJson(response, 200);
      assertJson(await me(response.json.token), 200); // and now cached by the gateway
      // Wait for the expiry itself (the server shares this machine's clock), not a guessed duration.
      while (Date.now() <= expiresAt) await new Promise((resolve) => setTimeout(resolve, 50));
      assertAppError(await me(response.json.token), 401, 'api.context.session_expired.app_error');
      const negative = await raw(target.url, 'POST', `/api/v4/users/${user.user.id}/tokens`, { token: admin.token, body: { description: 'x', expires_at: -1 } });
      assertAppError(negative, 400, 'model.user_access_token.is_valid.expires_at.app_error');
    });

    it('when a token is passed in the access_token query parameter, then 401 api.context.token_provided.app_error', async () => {
      const user = await createUser(admin.client, 'patq');
      const token = await issueToken(admin.client, user.user.id, 'query');
      assertAppError(await raw(target.url, 'GET', `/api/v4/users/me?access_token=${token.token}`), 401, 'api.context.token_provided.app_error');
    });

    it('when an ordinary user asks for a token, then 403 until it holds system_user_access_token', async () => {
      const session = await createUserSession(target.url, admin.client, 'patself');
      await expectClientError(session.client.createUserAccessToken(session.user.id, 'mine'), 403, 'api.context.permissions.app_error');
      await admin.client.updateUserRoles(session.user.id, 'system_user system_user_access_token');
      const token = await issueToken(session.client, session.user.id, 'mine');
      assertJson(await me(token.token), 200);
    });

    it('when a user reads, revokes or makes tokens of someone else, then 403', async () => {
      const owner = await createUser(admin.client, 'patown');
      const token = await issueToken(admin.client, owner.user.id, 'private');
      const snoop = await createUserSession(target.url, admin.client, 'patsnoop');
      await admin.client.updateUserRoles(snoop.user.id, 'system_user system_user_access_token');
      await expectClientError(snoop.client.getUserAccessTokensForUser(owner.user.id), 403, 'api.context.permissions.app_error');
      await expectClientError(snoop.client.getUserAccessToken(token.id), 403, 'api.context.permissions.app_error');
      await expectClientError(snoop.client.revokeUserAccessToken(token.id), 403, 'api.context.permissions.app_error');
      await expectClientError(snoop.client.createUserAccessToken(owner.user.id, 'steal'), 403, 'api.context.permissions.app_error');
      assertJson(await me(token.token), 200);
    });

    it('when the token id in the URL is malformed, then 400 api.context.invalid_url_param.app_error', async () => {
      assertAppError(await raw(target.url, 'GET', '/api/v4/users/tokens/nope', { token: admin.token }), 400, 'api.context.invalid_url_param.app_error');
    });
  });
});
