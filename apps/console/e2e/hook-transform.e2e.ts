import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { arrangeWorld, type World } from './support/api';
import { launch, newContext, screenshot, seriousViolations, signIn } from './support/browser';
import { REPO, startServer, type RunningServer } from './support/server';

let server: RunningServer;
let browser: Browser;
let world: World;
/** GitHub's own push sample (services/incoming-hooks/templates/fixtures/SOURCES.md). */
const PUSH = readFileSync(join(REPO, 'services', 'incoming-hooks', 'templates', 'fixtures', 'github', 'push.json'), 'utf8');

before(async () => {
  server = await startServer();
  world = await arrangeWorld(server.url);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('when a hook manager picks the github template, pastes a push sample and tries it, then the post it would make is shown; saved, a real push posts as the github bot with its blocks drawn', async () => {
  const hook = await world.api.call<{ id: string }>('POST', '/hooks/incoming', { channel_id: world.channel.id, display_name: 'GitHub' });
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Incoming webhooks' }).click();
    await page.getByLabel('Team', { exact: true }).selectOption({ label: world.team.display_name });
    const row = page.getByRole('listitem', { name: 'GitHub' });
    await row.getByRole('button', { name: 'Transform' }).click();
    const form = row.getByRole('form', { name: 'Transform' });
    await form.getByLabel('Payload format').selectOption({ label: 'Template: github' });
    await form.getByLabel('Sample payload').fill(PUSH);
    await form.getByLabel('Sample headers').fill('X-GitHub-Event: push');
    await form.getByRole('button', { name: 'Try it' }).click();
    const preview = form.getByRole('region', { name: 'Preview' });
    await preview.getByText('Event: push').waitFor();
    await preview.getByText(/pushed 1 commit to/).waitFor();
    await preview.getByRole('link', { name: '6113728' }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, '40-hook-transform-dry-run');

    // A sample the template does not know: the reason, not an empty post.
    await form.getByLabel('Sample headers').fill('');
    await form.getByRole('button', { name: 'Try it' }).click();
    await form.getByText(/X-GitHub-Event header is missing/).waitFor();

    await form.getByLabel('Only these events').fill('push, release');
    await form.getByRole('button', { name: 'Save transform' }).click();
    await form.getByText('Transform saved.').waitFor();
    const saved = await world.api.call<{ transform: unknown; only_events: string[] }>('GET', `/hooks/incoming/${hook.id}`);
    assert.deepEqual(saved.transform, { template: 'github' });
    assert.deepEqual(saved.only_events, ['push', 'release']);

    // The vendor posts; the channel shows it from the github bot.
    const res = await fetch(`${server.url}/hooks/${hook.id}`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-GitHub-Event': 'push' }, body: PUSH });
    assert.equal(res.status, 200);
    // A Slack-style body with blocks, through a plain hook: drawn by the console.
    const plain = await world.api.call<{ id: string }>('POST', '/hooks/incoming', { channel_id: world.channel.id, display_name: 'Blocks' });
    const blocks = await fetch(`${server.url}/hooks/${plain.id}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'Deploy finished', blocks: [{ type: 'header', text: { type: 'plain_text', text: 'Deploy v42' } }, { type: 'divider' }, { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open logs' }, url: 'https://ci.example/42' }] }] }),
    });
    assert.equal(blocks.status, 200);
    await page.goto(`/channels/${world.team.name}/${world.channel.name}`);
    const list = page.getByRole('list', { name: `Messages in ~${world.channel.name}` });
    const push = list.getByRole('article').filter({ hasText: 'pushed 1 commit' });
    await push.waitFor();
    await push.getByText('github', { exact: true }).first().waitFor();
    await push.getByText('BOT', { exact: true }).waitFor();
    const drawn = list.getByRole('article').filter({ hasText: 'Deploy v42' });
    await drawn.getByRole('link', { name: 'Open logs' }).waitFor();
    assert.equal(await drawn.getByRole('link', { name: 'Open logs' }).getAttribute('href'), 'https://ci.example/42');
    await screenshot(page, '41-hook-transform-posts');
  } finally {
    await context.close();
  }
});
