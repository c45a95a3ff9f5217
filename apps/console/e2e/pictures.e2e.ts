import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import { arrangeWorld, type World } from './support/api';
import { launch, newContext, screenshot, seriousViolations, signIn } from './support/browser';
import { curlPostJson } from './support/curl';
import { startServer, type RunningServer } from './support/server';

let server: RunningServer;
let browser: Browser;
let world: World;

const ICON = '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 4 4"><circle cx="2" cy="2" r="2" fill="#2e7d32"/></svg>';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAABAAAAAMCAIAAADkharWAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAGElEQVQokWM4Y5xGEmIY1WA8GkpnsIUBAN9JC9DsOMQ9AAAAAElFTkSuQmCC', 'base64');

before(async () => {
  server = await startServer();
  world = await arrangeWorld(server.url);
  await world.api.call('PUT', '/config/patch', { ServiceSettings: { EnableBotAccountCreation: true, EnablePostIconOverride: true } });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The src of the picture in `scope`, once the browser has drawn it (a picture that failed to load is not drawn). */
async function drawnPicture(scope: Locator): Promise<string> {
  const img = scope.locator('.avatar img').first();
  await img.waitFor();
  await img.evaluate((el: HTMLImageElement) => (el.complete && el.naturalWidth > 0 ? undefined : new Promise((ok) => el.addEventListener('load', ok, { once: true }))));
  assert.ok(await img.evaluate((el: HTMLImageElement) => el.naturalWidth > 0), 'the picture was drawn');
  return (await img.getAttribute('src')) ?? '';
}

async function openChannel(page: Page): Promise<Locator> {
  await page.goto(`/channels/${world.team.name}/${world.channel.name}`);
  await page.getByRole('heading', { name: `~${world.channel.display_name}` }).waitFor();
  return page.getByRole('list', { name: `Messages in ~${world.channel.name}` });
}

test('when an admin uploads an SVG icon for a bot on the Bots page, then the row shows it; a PNG is refused in words', async () => {
  const bot = await world.api.call<{ user_id: string; username: string }>('POST', '/bots', { username: `pic-${Date.now().toString(36)}`, display_name: 'Picture bot' });
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Bots' }).click();
    const row = page.getByRole('listitem', { name: `@${bot.username}` });
    await row.waitFor();
    const defaultSrc = await drawnPicture(row);
    assert.match(defaultSrc, new RegExp(`/api/v4/users/${bot.user_id}/image\\?_=0$`));

    await row.getByLabel(`Upload icon for @${bot.username} (SVG)`).setInputFiles({ name: 'icon.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(ICON) });
    await row.getByRole('button', { name: 'Remove icon' }).waitFor();
    const iconSrc = await drawnPicture(row);
    assert.notEqual(iconSrc, defaultSrc, 'the picture URL changed with the icon');
    const served = await page.request.get(iconSrc);
    assert.equal(served.headers()['content-type'], 'image/svg+xml');
    assert.match(served.headers()['content-security-policy'] ?? '', /sandbox/);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, '20-bot-icon');

    await row.getByLabel(`Replace icon for @${bot.username} (SVG)`).setInputFiles({ name: 'icon.png', mimeType: 'image/png', buffer: PNG });
    const alert = row.getByRole('alert');
    await alert.waitFor();
    assert.doesNotMatch((await alert.textContent()) ?? '', /[{}]/, 'in words, not JSON');
    await row.getByRole('button', { name: 'Remove icon' }).click();
    await row.getByLabel(`Upload icon for @${bot.username} (SVG)`).waitFor();
  } finally {
    await context.close();
  }
});

test("when posts arrive, then each shows its author's profile picture, and a webhook post with an icon override shows that icon", async () => {
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    const list = await openChannel(page);
    await world.api.call('POST', '/posts', { channel_id: world.channel.id, message: 'a post by the admin' });
    const post = list.getByRole('article').filter({ hasText: 'a post by the admin' });
    await post.waitFor();
    assert.match(await drawnPicture(post), new RegExp(`/api/v4/users/${world.admin.id}/image\\?_=\\d+$`));

    const bot = await world.api.call<{ user_id: string }>('POST', '/bots', { username: `hookicon-${Date.now().toString(36)}` });
    const set = await page.request.post(`/api/v4/bots/${bot.user_id}/icon`, { multipart: { image: { name: 'icon.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(ICON) } }, headers: { 'X-Requested-With': 'XMLHttpRequest', 'X-CSRF-Token': (await context.cookies()).find((c) => c.name === 'MMCSRF')?.value ?? '' } });
    assert.equal(set.status(), 200, await set.text());
    const override = `${server.url}/api/v4/bots/${bot.user_id}/icon`;
    const hook = await world.api.call<{ id: string }>('POST', '/hooks/incoming', { channel_id: world.channel.id, display_name: 'Icon override' });
    await curlPostJson(`${server.url}/hooks/${hook.id}`, { text: 'a webhook post with an icon', icon_url: override });
    const hookPost = list.getByRole('article').filter({ hasText: 'a webhook post with an icon' });
    await hookPost.getByText('BOT', { exact: true }).waitFor();
    assert.equal(await drawnPicture(hookPost), override);
    await screenshot(page, '21-post-pictures');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'People' }).click();
    const me = page.getByRole('listitem', { name: `@${world.admin.username}` });
    assert.match(await drawnPicture(me), new RegExp(`/users/${world.admin.id}/image`));
    assert.deepEqual(await seriousViolations(page), []);
  } finally {
    await context.close();
  }
});
