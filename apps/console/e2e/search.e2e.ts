import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { arrangeWorld, type World } from './support/api';
import { launch, newContext, screenshot, seriousViolations, signIn } from './support/browser';
import { startServer, type RunningServer } from './support/server';

let server: RunningServer;
let browser: Browser;
let world: World;

before(async () => {
  server = await startServer();
  world = await arrangeWorld(server.url);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('when messages are searched in the sidebar, then results show with the matched words highlighted and a link jumps to the message in its channel', async () => {
  const word = `zeta${Date.now().toString(36).replace(/[0-9]/g, 'q')}`;
  const older = await world.api.call<{ id: string }>('POST', '/posts', { channel_id: world.channel.id, message: `Rollback of ${word} is RUNNING now` });
  await world.api.call('POST', '/posts', { channel_id: world.channel.id, message: 'unrelated chatter' });
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    await page.goto(`/channels/${world.team.name}/town-square`);
    const box = page.getByRole('search', { name: 'Search messages' });
    await box.getByRole('searchbox', { name: 'Search messages' }).fill(`${word} run`);
    await box.getByRole('button', { name: 'Search' }).click();
    const results = page.getByRole('list', { name: 'Search results' });
    await results.waitFor();
    assert.equal(await results.getByRole('listitem').count(), 1);
    const marks = await results.locator('mark').allTextContents();
    assert.deepEqual(marks.sort(), ['RUNNING', word].sort());
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, '60-search-results');
    await results.getByRole('link', { name: 'Jump to message' }).click();
    await page.getByRole('heading', { name: `~${world.channel.display_name}` }).waitFor();
    const jumped = page.locator(`#post-${older.id}`);
    await jumped.waitFor();
    await page.waitForFunction((id) => document.getElementById(id)?.classList.contains('jumped') === true, `post-${older.id}`);
    assert.ok(page.url().endsWith(`#post-${older.id}`));

    await page.getByRole('searchbox', { name: 'Search messages' }).fill('nothingmatchesthisword');
    await page.getByRole('search', { name: 'Search messages' }).getByRole('button', { name: 'Search' }).click();
    await page.getByText('No messages found.').waitFor();
  } finally {
    await context.close();
  }
});
