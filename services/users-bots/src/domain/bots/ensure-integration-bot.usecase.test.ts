import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError } from '@switchyard/errors';
import { domainHarness } from '../../test-support/domain-harness';
import { collisionMessage, ensureIntegrationBot } from './ensure-integration-bot.usecase';
import { botIconKey as botIconKeyOf } from '../pictures/picture-keys';
import { insertBot } from './create-bot.usecase';

test('when an integration is first used, then one system-owned bot of its name exists, and later (or racing) uses get the same', async () => {
  const h = domainHarness();
  const [a, b] = await Promise.all([ensureIntegrationBot(h.deps, 'github'), ensureIntegrationBot(h.deps, 'github')]);
  assert.equal(a.kind, 'bot');
  assert.equal(a.userId, b.userId);
  assert.equal((await ensureIntegrationBot(h.deps, 'github')).userId, a.userId);
  const bot = await h.deps.bots.findById(a.userId);
  assert.equal(bot?.ownerId, 'system');
  assert.equal(bot?.displayName, 'GitHub');
  assert.equal((await h.deps.users.findByUsername('github'))?.isBot, true);
  assert.ok((bot?.lastIconUpdate ?? 0) > 0, 'the bot has its icon');
  const icon = await h.deps.images.get(botIconKeyOf(a.userId));
  assert.match(String(icon?.data), /<svg[^>]*>.*GH/s);
});

test('when an ordinary user holds the name, then that user is returned (no bot made), and the log text names both fixes', async () => {
  const h = domainHarness();
  // An ordinary user named grafana: a bot made and converted is the quickest way to one here.
  const view = await insertBot(h.deps, { username: 'grafana', displayName: 'x', description: '', ownerId: 'someone' });
  const user = await h.deps.users.findByUsername('grafana');
  await h.deps.users.update(view.bot.id, { isBot: false });
  await h.deps.bots.delete(view.bot.id);
  const sender = await ensureIntegrationBot(h.deps, 'grafana');
  assert.deepEqual(sender, { kind: 'user', userId: user?.id, username: 'grafana' });
  assert.equal(await h.deps.bots.findById(view.bot.id), undefined);
  const text = collisionMessage('grafana', 'Grafana');
  assert.match(text, /convert the user to a bot/);
  assert.match(text, /rename the user and re-enable the integration/);
});

test('when the name is not a built-in integration, then 400 and nothing is made', async () => {
  const h = domainHarness();
  for (const name of ['admin', '__proto__', 'constructor']) {
    await assert.rejects(ensureIntegrationBot(h.deps, name), (e: unknown) => isAppError(e) && e.statusCode === 400);
    assert.equal(await h.deps.users.findByUsername(name), undefined);
  }
});
