import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
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

async function pickTeam(page: Page): Promise<void> {
  await page.getByLabel('Team', { exact: true }).selectOption({ label: world.team.display_name });
}

const tokenOf = async (page: Page, label: string): Promise<string> => ((await page.getByLabel(label, { exact: true }).textContent()) ?? '').trim();

test('when a slash command is created, then its token is shown to its creator; it can be edited, get a new token and be deleted', async () => {
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  const trigger = `deploy${Date.now().toString(36)}`;
  try {
    await signIn(page, world.admin.username, world.admin.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Slash commands' }).click();
    await pickTeam(page);
    const form = page.getByRole('form', { name: 'Create slash command' });
    await form.getByLabel('Command trigger word').fill(`/${trigger}`);
    await form.getByLabel('Request URL').fill('not a url');
    await form.getByRole('button', { name: 'Create slash command' }).click();
    await form.getByText('Leave out the leading slash: it is added when the command is used.').waitFor();
    await form.getByText('Use a URL starting with http:// or https://.').waitFor();

    await form.getByLabel('Title').fill('Deploy');
    await form.getByLabel('Description').fill('Ships the current build');
    await form.getByLabel('Command trigger word').fill(trigger);
    await form.getByLabel('Request URL').fill('https://ci.example/commands/deploy');
    await form.getByLabel('Request method').selectOption('G');
    await form.getByRole('button', { name: 'Create slash command' }).click();
    await page.getByRole('status').filter({ hasText: `Created /${trigger}.` }).waitFor();
    const created = await tokenOf(page, 'New command token');
    assert.match(created, /^[a-z0-9]{26}$/);

    const row = page.getByRole('listitem', { name: 'Deploy' });
    await row.getByText('GET https://ci.example/commands/deploy').waitFor();
    assert.equal(((await row.getByLabel('Token', { exact: true }).textContent()) ?? '').trim(), created, 'the creator sees the token in the list');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, '40-slash-commands');

    await row.getByRole('button', { name: 'Regenerate token' }).click();
    await row.getByLabel('Token', { exact: true }).filter({ hasNotText: created }).waitFor();
    const listed = await world.api.call<{ id: string; token: string; trigger: string; description: string }[]>('GET', `/commands?team_id=${world.team.id}&custom_only=true`);
    const stored = listed.find((c) => c.trigger === trigger);
    assert.ok(stored && stored.token !== created, 'the server has the new token');

    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = row.getByRole('form', { name: 'Save changes' });
    await edit.getByLabel('Description').fill('Ships the build to staging');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await row.getByText('Ships the build to staging').waitFor();

    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: `Yes, delete /${trigger}` }).click();
    await row.waitFor({ state: 'detached' });
    const after = await world.api.call<{ trigger: string }[]>('GET', `/commands?team_id=${world.team.id}&custom_only=true`);
    assert.equal(after.some((c) => c.trigger === trigger), false);
  } finally {
    await context.close();
  }
});
