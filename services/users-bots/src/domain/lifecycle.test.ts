import { test } from 'node:test';
import assert from 'node:assert/strict';
import { actor, domainHarness } from '../test-support/domain-harness';
import { createBot } from './bots/create-bot.usecase';
import { activateUser, deactivateUser } from './lifecycle';
import { createUser } from './users/create-user.usecase';

test('when an owner is deactivated, then every enabled bot of theirs is disabled, each with its own event, and reactivation leaves them', async () => {
  const h = domainHarness();
  h.setConfig((c) => {
    c.ServiceSettings.EnableBotAccountCreation = true;
  });
  const owner = await createUser(h.deps, undefined, { username: 'owner', email: 'owner@example.com', password: 'password-1' });
  const a = await createBot(h.deps, actor(owner.id, owner.roles), { username: 'bot-a' });
  const b = await createBot(h.deps, actor(owner.id, owner.roles), { username: 'bot-b' });
  h.bus.clear();
  await deactivateUser(h.deps, owner);
  assert.deepEqual(h.bus.types().sort(), ['bot.disabled', 'bot.disabled', 'user.deactivated']);
  for (const bot of [a, b]) {
    assert.ok(((await h.deps.bots.findById(bot.bot.id))?.deleteAt ?? 0) > 0);
    assert.ok(((await h.deps.users.findById(bot.bot.id))?.deleteAt ?? 0) > 0);
  }
  await activateUser(h.deps, (await h.deps.users.findById(owner.id))!);
  assert.equal((await h.deps.users.findById(owner.id))?.deleteAt, 0);
  assert.ok(((await h.deps.bots.findById(a.bot.id))?.deleteAt ?? 0) > 0);
});

test('when a bot user is deactivated through the user path, then its Bots row is disabled too', async () => {
  const h = domainHarness();
  h.setConfig((c) => {
    c.ServiceSettings.EnableBotAccountCreation = true;
  });
  const owner = await createUser(h.deps, undefined, { username: 'owner', email: 'owner@example.com', password: 'password-1' });
  const bot = await createBot(h.deps, actor(owner.id, owner.roles), { username: 'bot-c' });
  await deactivateUser(h.deps, (await h.deps.users.findById(bot.bot.id))!);
  assert.ok(((await h.deps.bots.findById(bot.bot.id))?.deleteAt ?? 0) > 0);
  await activateUser(h.deps, (await h.deps.users.findById(bot.bot.id))!);
  assert.equal((await h.deps.bots.findById(bot.bot.id))?.deleteAt, 0);
});
