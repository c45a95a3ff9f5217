import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { arrangeWorld, SetupApi, type World } from './support/api';
import { launch, newContext, screenshot, seriousViolations, signIn } from './support/browser';
import { Receiver } from './support/receiver';
import { startServer, type RunningServer } from './support/server';

let server: RunningServer;
let browser: Browser;
let world: World;
let bot: { user_id: string; username: string };
const receiver = new Receiver(() => ({ status: 200 }));

before(async () => {
  server = await startServer();
  world = await arrangeWorld(server.url);
  await receiver.start();
  await world.api.call('PUT', '/config/patch', { ServiceSettings: { AllowedUntrustedInternalConnections: '127.0.0.1', EnableBotAccountCreation: true } });
  bot = await world.api.call('POST', '/bots', { username: `watcher-${Date.now().toString(36)}`, display_name: 'Watcher' });
  await world.api.call('POST', `/teams/${world.team.id}/members`, { team_id: world.team.id, user_id: bot.user_id });
  await world.api.call('POST', `/channels/${world.channel.id}/members`, { user_id: bot.user_id });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await receiver.stop();
  await server?.stop();
});

async function openHooks(page: Page): Promise<void> {
  await page.goto('/integrations/outgoing');
  await page.getByLabel('Team', { exact: true }).selectOption({ label: world.team.display_name });
}

/** `whpk_` + base64 of the raw 32-byte Ed25519 key, as a Node key object (an independent verifier: node:crypto). */
function ed25519Key(whpk: string) {
  const raw = Buffer.from(whpk.replace(/^whpk_/, ''), 'base64');
  return createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]), format: 'der', type: 'spki' });
}

test('when a hook is created with event types and Ed25519, then the list shows them and the copyable public key, the receiver\'s v1a signatures verify with it, and the delivery log shows each event type', async () => {
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    await openHooks(page);
    const form = page.getByRole('form', { name: 'Create outgoing webhook' });
    const events = form.getByRole('group', { name: 'Events' });
    assert.equal(await events.getByRole('checkbox', { name: /A message is posted/ }).isChecked(), true, 'posted by default');
    await events.getByRole('checkbox', { name: /delivery_dead/ }).waitFor(); // a system admin is offered the admin-only types
    await form.getByLabel('Title').fill('Watch');
    await events.getByRole('checkbox', { name: /reaction_added/ }).check();
    await form.getByLabel('Channel', { exact: true }).selectOption({ label: world.channel.display_name });
    await form.getByLabel('Content type').selectOption('application/json');
    await form.getByLabel('Callback URLs').fill(`${receiver.url}/watch`);
    await form.getByLabel('Signing algorithm').selectOption('ed25519');
    await form.getByRole('button', { name: 'Create outgoing webhook' }).click();

    const row = page.getByRole('listitem', { name: 'Watch' });
    await row.getByText('Hears: posted, reaction_added').waitFor();
    const publicKey = await row.getByLabel('Public key').inputValue();
    assert.match(publicKey, /^whpk_[A-Za-z0-9+/]{43}=$/);
    assert.equal(await row.getByLabel('Public key').getAttribute('readonly'), '');
    await row.getByRole('button', { name: 'Copy public key' }).click();
    await row.getByText('Copied.').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), publicKey);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'hook-fields-01-ed25519');

    // A post and a reaction in the channel: two deliveries, signed v1a.
    const post = await world.api.call<{ id: string }>('POST', '/posts', { channel_id: world.channel.id, message: 'deploy finished' });
    await world.api.call('POST', '/reactions', { user_id: world.admin.id, post_id: post.id, emoji_name: 'tada' });
    await row.getByRole('button', { name: 'Delivery log' }).click();
    const log = row.getByRole('region', { name: 'Delivery log' });
    await log.getByRole('row').filter({ hasText: 'reaction_added' }).filter({ hasText: 'Delivered' }).waitFor();
    await log.getByRole('row').filter({ hasText: 'posted' }).filter({ hasText: 'Delivered' }).waitFor();
    const headerCells = await log.getByRole('columnheader').allTextContents();
    assert.ok(headerCells.includes('Event'));

    const calls = receiver.received.filter((r) => r.path === '/watch');
    assert.equal(calls.length, 2);
    for (const call of calls) {
      const signatures = String(call.headers['webhook-signature']).split(' ');
      const signed = `${String(call.headers['webhook-id'])}.${String(call.headers['webhook-timestamp'])}.${call.body}`;
      const ok = signatures.some((s) => s.startsWith('v1a,') && verify(null, Buffer.from(signed), ed25519Key(publicKey), Buffer.from(s.slice(4), 'base64')));
      assert.ok(ok, `a v1a signature verifies with the shown public key: ${signatures.join(' ')}`);
    }
    await screenshot(page, 'hook-fields-02-delivery-log-events');
  } finally {
    await context.close();
  }
});

test('when a hook is edited to post as a bot the admin manages, then the form offers that bot, and the saved hook has it with its events kept', async () => {
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    await openHooks(page);
    const row = page.getByRole('listitem', { name: 'Watch' });
    await row.getByRole('button', { name: 'Edit' }).click();
    const form = row.getByRole('form', { name: 'Save changes' });
    assert.equal(await form.getByRole('group', { name: 'Events' }).getByRole('checkbox', { name: /reaction_added/ }).isChecked(), true);
    assert.equal(await form.getByLabel('Signing algorithm').inputValue(), 'ed25519');
    await form.getByLabel('Bot', { exact: true }).selectOption({ label: `@${bot.username} (Watcher)` });
    await form.getByRole('button', { name: 'Save changes' }).click();
    await row.getByText(`Replies as @${bot.username}`).waitFor();
    const hooks = await world.api.call<{ display_name: string; bot_user_id: string; event_types: string[]; signing_algorithm: string }[]>('GET', `/hooks/outgoing?team_id=${world.team.id}`);
    const saved = hooks.find((h) => h.display_name === 'Watch');
    assert.equal(saved?.bot_user_id, bot.user_id);
    assert.deepEqual(saved?.event_types, ['posted', 'reaction_added']);
    assert.equal(saved?.signing_algorithm, 'ed25519');
  } finally {
    await context.close();
  }
});

test('when a team admin who is not a system admin adds a hook, then the admin-only event types are not offered', async () => {
  const username = `lead-${Date.now().toString(36)}`;
  const password = 'Lead-pass-1';
  const user = await world.api.call<{ id: string }>('POST', '/users', { username, email: `${username}@example.com`, password });
  assert.ok(user.id);
  // The user's own team: its creator is its team admin, so may manage its outgoing webhooks.
  const lead = new SetupApi(server.url);
  await lead.login(username, password);
  const team = await lead.call<{ display_name: string }>('POST', '/teams', { name: `${username}-team`, display_name: `Team of ${username}`, type: 'O' });
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await signIn(page, username, password);
    await page.goto('/integrations/outgoing');
    await page.getByLabel('Team', { exact: true }).selectOption({ label: team.display_name });
    const events = page.getByRole('form', { name: 'Create outgoing webhook' }).getByRole('group', { name: 'Events' });
    await events.getByRole('checkbox', { name: /reaction_added/ }).waitFor();
    assert.equal(await events.getByRole('checkbox', { name: /delivery_dead|integration_disabled/ }).count(), 0);
  } finally {
    await context.close();
  }
});
