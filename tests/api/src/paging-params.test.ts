import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import type { Team } from '@mattermost/types/teams';
import { createBot, createUser, issueToken, patchConfig, type AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { raw } from './support/http';
import { createIncomingHook } from './support/incoming-hooks';
import { newChannel, newTeam, postIn } from './support/posts-fixtures';
import type { Target } from './support/target';

type Json = Record<string, unknown>;

/**
 * Every paginated list endpoint reads `page` and `per_page` as the reference's web/params.go does:
 * Go's Atoi (sign allowed; spaces, decimals, overflow are errors), the first of repeated values, an
 * error or a negative value gives the default (page 0, per_page 60), per_page above 200 gives 200, and
 * `pageSize` is tried when per_page does not parse. Each odd query must answer exactly as its plain
 * equivalent (compared by the listed ids), and never with an error.
 */
const EQUIVALENT: readonly (readonly [string, string])[] = [
  ['page=-1&per_page=2', 'page=0&per_page=2'],
  ['page=abc&per_page=2', 'page=0&per_page=2'],
  ['page=%2B1&per_page=%2B2', 'page=1&per_page=2'],
  ['page=1.0&per_page=2', 'page=0&per_page=2'],
  ['page=%201&per_page=2', 'page=0&per_page=2'],
  ['page=99999999999999999999&per_page=2', 'page=0&per_page=2'],
  ['page=1&page=0&per_page=2&per_page=3', 'page=1&per_page=2'],
  ['per_page=abc', 'per_page=60'],
  ['per_page=-5', 'per_page=60'],
  ['per_page=', 'per_page=60'],
  ['per_page=1000', 'per_page=200'],
  ['pageSize=2', 'per_page=2'],
  ['per_page=x&pageSize=2', 'per_page=2'],
  ['per_page=-1&pageSize=2', 'per_page=60'],
  ['', 'page=0&per_page=60'],
];

/** The ids an answer lists, in order (arrays of objects, PostLists, the hooks total-count form). */
function idsOf(body: unknown): string[] {
  if (Array.isArray(body)) return body.map((item: Json) => String(item.id ?? item.user_id ?? `${String(item.team_id)}:${String(item.channel_id)}`));
  const object = body as Json;
  if (Array.isArray(object.order)) return object.order as string[];
  if (Array.isArray(object.incoming_webhooks)) return idsOf(object.incoming_webhooks);
  assert.fail(`not a list: ${JSON.stringify(body).slice(0, 200)}`);
}

describe('paging parameters on every list endpoint (black box)', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let channel: Channel;
  let lists: Record<string, string> = {};
  let restore: Json = {};

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    const config = (await raw(target.url, 'GET', '/api/v4/config', { token: admin.token })).json as { ServiceSettings: Json };
    restore = { EnableBotAccountCreation: config.ServiceSettings.EnableBotAccountCreation, EnableUserAccessTokens: config.ServiceSettings.EnableUserAccessTokens };
    await patchConfig(admin.client, { ServiceSettings: { EnableBotAccountCreation: true, EnableUserAccessTokens: true } });
    team = await newTeam(admin);
    channel = await newChannel({ client: admin.client, token: admin.token, id: admin.user.id, username: admin.user.username }, team);
    // At least three items in every list, so pages of 2 differ from pages of 60.
    for (let i = 0; i < 3; i += 1) {
      const user = await createUser(admin.client, 'pg');
      await admin.client.addToTeam(team.id, user.user.id);
      await admin.client.addToChannel(user.user.id, channel.id);
      await postIn(admin, channel.id, `paging ${i}`);
      await createBot(admin.client, 'pgb');
      await issueToken(admin.client, admin.user.id, `paging ${i}`);
      await createIncomingHook(target.url, admin.token, { channel_id: channel.id, display_name: `paging ${i}` });
      await raw(target.url, 'POST', '/api/v4/hooks/outgoing', { token: admin.token, body: { team_id: team.id, channel_id: channel.id, callback_urls: ['https://example.com/cb'], display_name: `paging ${i}` } });
      await newChannel({ client: admin.client, token: admin.token, id: admin.user.id, username: admin.user.username }, team);
    }
    lists = {
      'GET /users': '/api/v4/users',
      'GET /users?in_team': `/api/v4/users?in_team=${team.id}`,
      'GET /bots': '/api/v4/bots',
      'GET /users/tokens': '/api/v4/users/tokens',
      'GET /users/{id}/tokens': `/api/v4/users/${admin.user.id}/tokens`,
      'GET /teams/{id}/members': `/api/v4/teams/${team.id}/members`,
      'GET /teams/{id}/channels': `/api/v4/teams/${team.id}/channels`,
      'GET /channels/{id}/members': `/api/v4/channels/${channel.id}/members`,
      'GET /channels/{id}/posts': `/api/v4/channels/${channel.id}/posts`,
      'GET /hooks/incoming': `/api/v4/hooks/incoming?team_id=${team.id}`,
      'GET /hooks/incoming?include_total_count': `/api/v4/hooks/incoming?team_id=${team.id}&include_total_count=true`,
      'GET /hooks/outgoing': `/api/v4/hooks/outgoing?team_id=${team.id}`,
    };
  });
  after(async () => {
    await patchConfig(admin.client, { ServiceSettings: restore });
    await target?.stop();
  });

  const get = async (path: string, query: string): Promise<string[]> => {
    const url = query === '' ? path : `${path}${path.includes('?') ? '&' : '?'}${query}`;
    const res = await raw(target.url, 'GET', url, { token: admin.token });
    assert.equal(res.status, 200, `${url}: ${res.status} ${res.text.slice(0, 300)}`);
    return idsOf(res.json);
  };

  it('when each list is paged with odd values, then each answers as its plain equivalent, and pages of 2 really page', async () => {
    for (const [name, path] of Object.entries(lists)) {
      const first = await get(path, 'page=0&per_page=2');
      assert.equal(first.length, 2, `${name}: a page of 2`);
      assert.notDeepEqual(await get(path, 'page=1&per_page=2'), first, `${name}: page 1 differs from page 0`);
      for (const [odd, plain] of EQUIVALENT) assert.deepEqual(await get(path, odd), await get(path, plain), `${name}: ?${odd} answers as ?${plain}`);
    }
  });

  it('when the page is far past the data (up to int64 max), then an empty list, never an error', async () => {
    for (const [name, path] of Object.entries(lists)) {
      for (const query of ['page=9223372036854775807&per_page=200', 'page=2147483647&per_page=1', 'page=100000&per_page=2']) {
        assert.deepEqual(await get(path, query), [], `${name}?${query}`);
      }
    }
  });

  it('when per_page is 0, then the list is empty', async () => {
    for (const [name, path] of Object.entries(lists)) assert.deepEqual(await get(path, 'per_page=0'), [], name);
  });
});
