import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Command } from '@mattermost/types/integrations';
import type { Team } from '@mattermost/types/teams';
import { createUserSession, uniqueName, type AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertAppError, raw, type RawResponse } from './support/http';
import { newTeam } from './support/posts-fixtures';
import type { Target } from './support/target';

/** `[[[…]]]` nested `depth` times, as a JSON text. */
const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('attacks on commands CRUD and dialogs', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let team: Team;
  let command: Command;

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    team = await newTeam(admin);
    command = await admin.client.addCommand({ team_id: team.id, trigger: `crud${Date.now().toString(36)}`, url: 'http://127.0.0.1:9/cmd', method: 'P' } as Command);
  });
  after(async () => {
    await target?.stop();
  });

  it("when the admin of another team reads, edits, regenerates, deletes or moves a command by its id, then 404 (or 400 team_mismatch for a move), and the token never shows", async () => {
    const rival = await createUserSession(target.url, admin.client, 'rival');
    const created = await raw(target.url, 'POST', '/api/v4/teams', { token: rival.token, body: { name: uniqueName('rv'), display_name: 'Rival', type: 'O' } });
    assert.equal(created.status, 201, created.text);
    const rivalTeam = created.json as Team;
    const answers: [string, RawResponse][] = [
      ['get', await raw(target.url, 'GET', `/api/v4/commands/${command.id}`, { token: rival.token })],
      ['put', await raw(target.url, 'PUT', `/api/v4/commands/${command.id}`, { token: rival.token, body: { ...command, url: 'http://127.0.0.1:9/stolen' } })],
      ['regen', await raw(target.url, 'PUT', `/api/v4/commands/${command.id}/regen_token`, { token: rival.token })],
      ['delete', await raw(target.url, 'DELETE', `/api/v4/commands/${command.id}`, { token: rival.token })],
    ];
    for (const [what, answer] of answers) {
      assertAppError(answer, 404, 'store.sql_command.save.get.app_error');
      assert.ok(!answer.text.includes(command.token), what);
    }
    const moved = await raw(target.url, 'PUT', `/api/v4/commands/${command.id}`, { token: admin.token, body: { ...command, team_id: rivalTeam.id } });
    assertAppError(moved, 400, 'api.command.team_mismatch.app_error');
    const still = await raw(target.url, 'GET', `/api/v4/commands/${command.id}`, { token: admin.token });
    assert.equal((still.json as Command).url, command.url, 'unchanged');
    assert.equal((still.json as Command).token, command.token, 'not regenerated');
  });

  it('when JSON bodies are deeply nested, oversized or of the wrong type, then 400 or 413 with a Mattermost error, never 5xx', async () => {
    const cases: [string, string, string][] = [
      ['POST', '/api/v4/commands', nested(100_000)],
      ['POST', '/api/v4/commands', `{"team_id":"${team.id}","trigger":"deep","url":"http://127.0.0.1:9/x","method":"P","autocomplete_data":${nested(5_000)}}`],
      ['PUT', `/api/v4/commands/${command.id}`, nested(100_000)],
      ['POST', '/api/v4/commands/execute', `{"command":"/x","channel_id":${nested(5_000)}}`],
      ['POST', '/api/v4/actions/dialogs/open', `{"trigger_id":"${'t'.repeat(100_000)}","url":"http://127.0.0.1:9/d","dialog":{"elements":${nested(5_000)}}}`],
      ['POST', '/api/v4/actions/dialogs/submit', `{"url":"http://127.0.0.1:9/d","callback_id":"c","state":"s","submission":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`],
      ['POST', '/api/v4/commands', `{"team_id":"${team.id}","trigger":"big","url":"http://127.0.0.1:9/x","method":"P","description":"${'d'.repeat(1_200_000)}"}`],
      ['POST', '/api/v4/commands', '{"team_id":1,"trigger":["x"],"url":{"a":1},"method":true}'],
    ];
    for (const [method, path, body] of cases) {
      const answer = await raw(target.url, method, path, { token: admin.token, rawBody: body, headers: { 'Content-Type': 'application/json' } });
      const what = `${method} ${path} ${body.slice(0, 60)}`;
      assert.ok(answer.status === 400 || answer.status === 413 || answer.status === 403, `${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
      const error = answer.json as { id?: string; status_code?: number };
      assert.equal(typeof error.id, 'string', what);
      assert.equal(error.status_code, answer.status, what);
    }
  });
});
