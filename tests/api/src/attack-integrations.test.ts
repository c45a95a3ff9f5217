import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import type { Command } from '@mattermost/types/integrations';
import type { Team } from '@mattermost/types/teams';
import type { AdminSession } from './support/fixtures';
import { assertAppError, raw, rawTarget, type RawResponse } from './support/http';
import { givenIntegrationWorld, type IntegrationWorld } from './support/integration-world';
import type { OutgoingReceiver } from './support/outgoing-receiver';
import { outsider, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

/**
 * Refused (4xx) or, for a path with dot segments, redirected to its clean form (301, as the reference's
 * router does); never a 2xx or 5xx, and never an answer that carries the command's token.
 */
function assertRefusedCleanly(response: RawResponse, what: string, token: string): void {
  const redirected = response.status === 301 && /\/\.\.?\//.test(what);
  assert.ok(redirected || (response.status >= 400 && response.status < 500), `${what}: ${response.status} ${response.text.slice(0, 200)}`);
  assert.ok(!response.text.includes(token), `${what}: the command token leaked`);
}

describe('attacks on slash commands and response_url', { timeout: 300_000 }, () => {
  let world: IntegrationWorld;
  let target: Target;
  let admin: AdminSession;
  let receiver: OutgoingReceiver;
  let team: Team;
  let channel: Channel;
  let member: Actor;
  let stranger: Actor;
  let command: Command;

  before(async () => {
    world = await givenIntegrationWorld({ serviceSettings: (url) => ({ SiteURL: url }) });
    ({ target, admin, receiver, team, channel, member } = world);
    stranger = await outsider(target.url, admin);
    command = await admin.client.addCommand({ team_id: team.id, trigger: `atk${Date.now().toString(36)}`, url: `${receiver.url}/attack`, method: 'P', auto_complete: true } as Command);
  });
  after(() => world?.stop());

  it("when someone outside the team asks for its autocomplete commands or its command list, 20 at once, then every answer is 403 and none carries a command", async () => {
    const paths = [`/api/v4/teams/${team.id}/commands/autocomplete`, `/api/v4/commands?team_id=${team.id}`, `/api/v4/commands?team_id=${team.id}&custom_only=true`];
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => raw(target.url, 'GET', paths[i % paths.length] ?? '', { token: stranger.token })));
    for (const answer of answers) {
      assertAppError(answer, 403, 'api.context.permissions.app_error');
      assertRefusedCleanly(answer, 'outsider', command.token);
      assert.ok(!answer.text.includes(command.trigger), 'no trigger leaked');
    }
    // A member sees the command, sanitised: no token, no URL (the reference's autocomplete list).
    const mine = await raw(target.url, 'GET', `/api/v4/teams/${team.id}/commands/autocomplete`, { token: member.token });
    assert.equal(mine.status, 200, mine.text);
    const shown = (mine.json as Command[]).find((c) => c.id === command.id);
    assert.equal(shown?.token, '');
    assert.equal(shown?.url, '');
    assert.ok(!mine.text.includes(command.token));
  });

  it('when the team id of autocomplete is malformed (encoded slash, dot segment, overlong, other case, another team\'s path), then 4xx, never a 5xx or a command', async () => {
    const id = team.id;
    for (const path of [
      `/api/v4/teams/${id}%2F..%2F${id}/commands/autocomplete`,
      `/api/v4/teams/${id}%252F/commands/autocomplete`,
      `/api/v4/teams/x/../${id}/commands/autocomplete`,
      `/api/v4/teams/${id.toUpperCase()}/commands/autocomplete`,
      `/api/v4/teams/${'a'.repeat(5_000)}/commands/autocomplete`,
      `/api/v4/commands?team_id=${id}%00`,
      `/api/v4/commands?team_id[]=${id}&team_id=${id}`,
    ]) {
      assertRefusedCleanly(await rawTarget(target.url, 'GET', path, { token: stranger.token }), path, command.token);
    }
  });

  it('when a response_url id is sent encoded, dot-segmented, overlong or in another case, then 404 missing and the real id keeps all of its 5 uses', async () => {
    receiver.respond((r) => (r.path === '/attack' ? { body: '{}' } : {}));
    const executed = await raw(target.url, 'POST', '/api/v4/commands/execute', { token: member.token, body: { command: `/${command.trigger}`, channel_id: channel.id, team_id: team.id } });
    assert.equal(executed.status, 200, executed.text);
    const received = await receiver.waitFor((r) => r.path === '/attack');
    const path = new URL(new URLSearchParams(received.body).get('response_url') ?? '').pathname;
    const id = path.slice('/hooks/commands/'.length);
    assert.match(id, /^[A-Za-z0-9]+$/);
    const half = Math.floor(id.length / 2);
    const variants = [
      `/hooks/commands/${id.slice(0, half)}%2F${id.slice(half)}`,
      `/hooks/commands/${id}%2F`,
      `/hooks/commands/${id}%252F`,
      `/hooks/commands/%2E%2E%2F${id}`,
      `/hooks/commands/./${id}`,
      `/hooks/commands/x/../${id}`,
      `/hooks/commands/${id.toUpperCase()}`,
      `/hooks/commands/${id}${'a'.repeat(64)}`,
      // Under the 16 KiB header limit, so the app decides (beyond it Node answers 431 and may reset the socket).
      `/hooks/commands/${'b'.repeat(8_000)}`,
      `/hooks/commands/${id}%00`,
    ];
    const answers = await Promise.all(variants.map((variant) => rawTarget(target.url, 'POST', variant, { body: { text: 'forged' } })));
    answers.forEach((answer, i) => {
      assertRefusedCleanly(answer, (variants[i] ?? '').slice(0, 80), command.token);
      assert.notEqual(answer.text, 'ok', variants[i]);
    });
    // A dot segment that resolves to the real id on a normalising proxy must not get there differently here:
    // the real id still has its 5 uses, then the 6th is refused.
    for (let use = 1; use <= 5; use += 1) {
      const ok = await raw(target.url, 'POST', path, { body: { response_type: 'in_channel', text: `use ${use}` } });
      assert.equal(ok.status, 200, `use ${use}: ${ok.text}`);
    }
    assertAppError(await raw(target.url, 'POST', path, { body: { text: 'sixth' } }), 400, 'app.command_webhook.try_use.invalid');
  });
});
