import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PostEventPayload } from '@switchyard/contracts';
import { memoryRepositories } from '../../adapters/memory';
import { fireHooks } from '../../domain/firing/fire-hooks.usecase';
import { eventually, fastDelivery, harness, RecordingBus, type Harness } from '../../test-support/harness';
import { FakeWorld } from '../../test-support/fake-platform';
import { SECRET } from '../../test-support/harness';

/**
 * Two replicas over one store and one bus: each caches a team's hooks, and a hook created or deleted through
 * one is seen by the other at once (hook.changed on outgoing.deliveries), not after the cache's TTL.
 */
describe('hook changes across replicas (hooks-by-team cache)', () => {
  let a: Harness;
  let b: Harness;
  const bus = new RecordingBus();
  const world = new FakeWorld(SECRET);

  before(async () => {
    const repositories = memoryRepositories();
    a = await harness({ bus, world, repositories, instanceId: 'a' });
    b = await harness({ bus, world, repositories, instanceId: 'b' });
    a.setConfig(fastDelivery);
    b.setConfig(fastDelivery);
  });
  after(async () => {
    await a.stop();
    await b.stop();
    await bus.close();
  });

  it('when a hook is created and then deleted through replica A, then replica B fires it, then stops firing it, without waiting for its cache to expire', async () => {
    const teamId = world.team('hc');
    const admin = { id: world.user('hcadmin').id, roles: 'system_admin system_user' };
    const author = world.user('hcauthor', { teamId });
    const channel = world.channel(teamId, 'O', 'hc-town');
    const event = (): PostEventPayload => ({
      post: world.post(channel, author.id, 'go now'),
      channel,
      team: { id: teamId, name: 'hc' },
      author: { id: author.id, username: author.username, is_bot: false },
      source: 'api',
      from_webhook: false,
      is_system: false,
    });
    assert.deepEqual(await b.app.deps.hooks.findByTeam(teamId), [], 'B caches the team without hooks');
    const created = await a.request('POST', '/api/v4/hooks/outgoing', { as: admin, body: { team_id: teamId, trigger_words: ['go'], callback_urls: ['http://127.0.0.1:9/cb'] } });
    assert.equal(created.statusCode, 201, created.body);
    const hookId = (created.json() as { id: string }).id;
    assert.ok(bus.published.some((m) => m.value.type === 'hook.changed' && (m.value.payload as { team_id?: string }).team_id === teamId), 'the change is announced');
    await eventually(async () => (await b.app.deps.hooks.findByTeam(teamId)).length === 1, 2_000, 'B sees the new hook');
    assert.equal((await fireHooks(b.app.deps, event())).length, 1, 'B fires the hook A created');
    const deleted = await a.request('DELETE', `/api/v4/hooks/outgoing/${hookId}`, { as: admin });
    assert.equal(deleted.statusCode, 200, deleted.body);
    await eventually(async () => (await b.app.deps.hooks.findByTeam(teamId)).length === 0, 2_000, 'B forgets the deleted hook');
    assert.equal((await fireHooks(b.app.deps, event())).length, 0, 'B no longer fires the hook A deleted');
  });
});
