import { test } from 'node:test';
import assert from 'node:assert/strict';
import { domainHarness } from '../../test-support/domain-harness';
import { ensureSystemBot } from './ensure-system-bot.usecase';

test('when started twice, then exactly one system-owned switchyard bot exists', async () => {
  const h = domainHarness();
  const first = await ensureSystemBot(h.deps);
  const second = await ensureSystemBot(h.deps);
  assert.equal(first?.bot.id, second?.bot.id);
  assert.equal(first?.username, 'switchyard');
  assert.equal(first?.bot.ownerId, 'system');
  const user = await h.deps.users.findByUsername('switchyard');
  assert.equal(user?.isBot, true);
  assert.equal(user?.email, 'switchyard@localhost');
  assert.equal(await h.deps.users.countHumans(), 0);
});

test('when concurrent starts race, then one bot wins and both calls return it', async () => {
  const h = domainHarness();
  const [a, b] = await Promise.all([ensureSystemBot(h.deps), ensureSystemBot(h.deps)]);
  assert.equal(a?.bot.id, b?.bot.id);
});

test('when the bot user exists without its Bots row (a crash between writes), then the row is repaired', async () => {
  const h = domainHarness();
  const created = await ensureSystemBot(h.deps);
  await h.deps.bots.delete(created!.bot.id);
  const repaired = await ensureSystemBot(h.deps);
  assert.equal(repaired?.bot.id, created?.bot.id);
  assert.equal((await h.deps.bots.findById(created!.bot.id))?.ownerId, 'system');
});
