import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { arrangeWorld, type World } from './support/api';
import { launch, newContext, screenshot, seriousViolations, signIn } from './support/browser';
import { Receiver, type Received } from './support/receiver';
import { startServer, type RunningServer } from './support/server';

let server: RunningServer;
let browser: Browser;
let world: World;

/** The command's service: `text` picks the answer; "form" opens a dialog with the request's trigger id. */
const service = new Receiver((req: Received) => {
  if (req.path === '/command') {
    const form = new URLSearchParams(req.body);
    const text = form.get('text') ?? '';
    if (text === 'form') {
      const dialog = { callback_id: 'from-command', title: 'Deploy where?', elements: [{ display_name: 'Target', name: 'target', type: 'select', options: [{ text: 'Staging', value: 'staging' }] }] };
      void fetch(`${server.url}/api/v4/actions/dialogs/open`, { method: 'POST', body: JSON.stringify({ trigger_id: form.get('trigger_id'), url: `${service.url}/dialog`, dialog }) });
      return { status: 200, json: {} };
    }
    return { status: 200, json: { response_type: 'ephemeral', text: `Only you see this: ${text}` } };
  }
  if (req.path === '/dialog') return { status: 200, json: {} };
  return { status: 404 };
});

before(async () => {
  server = await startServer();
  world = await arrangeWorld(server.url);
  await service.start();
  // Commands need a Site URL (their response_url is built on it), as in the reference.
  await world.api.call('PUT', '/config/patch', { ServiceSettings: { AllowedUntrustedInternalConnections: '127.0.0.1', SiteURL: server.url } });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await service.stop();
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

test('when a message starts with a slash, then it runs the command instead of posting: the ephemeral answer shows, and a dialog the command opens can be submitted', async () => {
  const trigger = `ship${Date.now().toString(36)}`;
  await world.api.call('POST', '/commands', { team_id: world.team.id, trigger, url: `${service.url}/command`, method: 'P' });
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    await page.goto(`/channels/${world.team.name}/${world.channel.name}`);
    await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();
    const box = page.getByLabel(`Write to ~${world.channel.name}`);
    const messages = page.getByRole('list', { name: `Messages in ~${world.channel.name}` });
    await box.fill(`/${trigger} hello there`);
    await box.press('Enter');
    const answer = messages.getByRole('article').filter({ hasText: 'Only you see this: hello there' });
    await answer.getByText('(Only visible to you)').waitFor();
    // The ephemeral answer comes over the WebSocket and may be drawn before execute's HTTP answer clears the box.
    for (const deadline = Date.now() + 10_000; (await box.inputValue()) !== '' && Date.now() < deadline; ) await page.waitForTimeout(50);
    assert.equal(await box.inputValue(), '', 'the box is cleared once the command ran');
    const posts = await world.api.call<{ order: string[]; posts: Record<string, { message: string }> }>('GET', `/channels/${world.channel.id}/posts`);
    assert.equal(Object.values(posts.posts).some((p) => p.message.startsWith(`/${trigger}`)), false, 'the command was not posted');
    const request = new URLSearchParams(service.received.find((r) => r.path === '/command')?.body ?? '');
    assert.equal(request.get('command'), `/${trigger}`);
    assert.equal(request.get('channel_id'), world.channel.id);

    await box.fill(`/${trigger} form`);
    await box.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Deploy where?' });
    await dialog.waitFor();
    await dialog.getByLabel('Target').selectOption('staging');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const submitted = JSON.parse(service.received.find((r) => r.path === '/dialog')?.body ?? '{}') as { callback_id?: string; submission?: unknown };
    assert.equal(submitted.callback_id, 'from-command');
    assert.deepEqual(submitted.submission, { target: 'staging' });

    await box.fill(`/nosuch${trigger}`);
    await box.press('Enter');
    await page.getByRole('alert').filter({ hasText: /not found|Command/ }).waitFor();
    await screenshot(page, '41-slash-command-in-channel');
  } finally {
    await context.close();
  }
});
