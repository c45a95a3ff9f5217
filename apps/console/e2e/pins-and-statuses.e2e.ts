import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { arrangeWorld, SetupApi, type World } from './support/api';
import { launch, newContext, screenshot, seriousViolations, signIn } from './support/browser';
import { startServer, type RunningServer } from './support/server';

let server: RunningServer;
let browser: Browser;
let world: World;
let bob: { id: string; username: string; api: SetupApi };

before(async () => {
  server = await startServer();
  world = await arrangeWorld(server.url);
  const username = `bob-${Date.now().toString(36)}`;
  const password = 'Bob-pass-12';
  const user = await world.api.call<{ id: string }>('POST', '/users', { username, email: `${username}@example.com`, password });
  await world.api.call('POST', `/teams/${world.team.id}/members`, { team_id: world.team.id, user_id: user.id });
  await world.api.call('POST', `/channels/${world.channel.id}/members`, { user_id: user.id });
  const api = new SetupApi(server.url);
  await api.login(username, password);
  bob = { id: user.id, username, api };
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function openChannel(page: Page): Promise<void> {
  await page.goto(`/channels/${world.team.name}/${world.channel.name}`);
  await page.getByRole('heading', { name: `~${world.channel.display_name}` }).waitFor();
  await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();
}

const post = (page: Page, text: string) => page.getByRole('list', { name: `Messages in ~${world.channel.name}` }).getByRole('article').filter({ hasText: text });

test('when posts are pinned and unpinned, in the page or by someone else, then the Pinned label and the pinned panel follow live', async () => {
  await world.api.call('POST', '/posts', { channel_id: world.channel.id, message: 'Release 2.0 is out' });
  const bobs = await bob.api.call<{ id: string }>('POST', '/posts', { channel_id: world.channel.id, message: 'Runbook: restart with care' });
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    await openChannel(page);
    const release = post(page, 'Release 2.0 is out');
    await release.getByRole('button', { name: 'Pin', exact: true }).click();
    await release.getByText('Pinned', { exact: true }).waitFor();
    await release.getByRole('button', { name: 'Unpin', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Pinned messages' }).click();
    const panel = page.getByRole('list', { name: 'Pinned messages' });
    await panel.getByRole('listitem').filter({ hasText: 'Release 2.0 is out' }).waitFor();
    assert.equal(await panel.getByRole('listitem').count(), 1);

    // Someone else pins: the post_edited event brings it into the open panel, oldest first.
    await bob.api.call('POST', `/posts/${bobs.id}/pin`);
    await panel.getByRole('listitem').filter({ hasText: 'Runbook: restart with care' }).waitFor();
    assert.deepEqual((await panel.getByRole('listitem').allTextContents()).map((t) => (t.includes('Release') ? 'release' : 'runbook')), ['release', 'runbook']);
    await post(page, 'Runbook: restart with care').getByText('Pinned', { exact: true }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'pins-01-panel');

    await panel.getByRole('listitem').filter({ hasText: 'Release 2.0 is out' }).getByRole('button', { name: 'Unpin' }).click();
    await panel.getByRole('listitem').filter({ hasText: 'Release 2.0 is out' }).waitFor({ state: 'detached' });
    await release.getByRole('button', { name: 'Pin', exact: true }).waitFor();
    assert.equal(await release.getByText('Pinned', { exact: true }).count(), 0);
    const pinned = await world.api.call<{ order: string[] }>('GET', `/channels/${world.channel.id}/pinned`);
    assert.deepEqual(pinned.order, [bobs.id]);
  } finally {
    await context.close();
  }
});

test('when statuses are set, then each author\'s status shows beside the name, and the user\'s own change arrives live', async () => {
  await bob.api.call('PUT', `/users/${bob.id}/status`, { user_id: bob.id, status: 'away' });
  await world.api.call('POST', '/posts', { channel_id: world.channel.id, message: 'Status check from admin' });
  await bob.api.call('POST', '/posts', { channel_id: world.channel.id, message: 'Status check from bob' });
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    await openChannel(page);
    await post(page, 'Status check from bob').getByRole('img', { name: 'Away' }).waitFor();
    const mine = post(page, 'Status check from admin');
    await mine.getByRole('img', { name: /^(Online|Away|Offline|Do not disturb)$/ }).waitFor();

    // The server sends status_change to the user's own sockets: the dot changes without a reload.
    await world.api.call('PUT', `/users/${world.admin.id}/status`, { user_id: world.admin.id, status: 'dnd' });
    await mine.getByRole('img', { name: 'Do not disturb' }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'statuses-01-beside-names');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'People' }).click();
    await page.getByRole('list', { name: 'People' }).getByRole('listitem', { name: `@${bob.username}` }).getByRole('img', { name: 'Away' }).waitFor();
  } finally {
    await world.api.call('PUT', `/users/${world.admin.id}/status`, { user_id: world.admin.id, status: 'online' });
    await context.close();
  }
});
