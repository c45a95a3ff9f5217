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
  await world.api.call('PUT', '/config/patch', { ServiceSettings: { EnableBotAccountCreation: true } });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('when a wrong password is given, then the sign-in page says why in words and stays', async () => {
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await page.goto('/');
    await page.getByLabel('Username or email').fill(world.admin.username);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /\w+ \w+/);
    assert.doesNotMatch((await alert.textContent()) ?? '', /[{}]/);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, '01-sign-in-error');
  } finally {
    await context.close();
  }
});

test('when an admin signs in and creates a bot, then its token is shown once with a copy button, and the list shows it with the BOT label', async () => {
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    const cookies = await context.cookies();
    assert.ok(cookies.find((c) => c.name === 'MMAUTHTOKEN')?.httpOnly, 'the session cookie is HTTP-only');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Bots' }).click();
    await page.getByRole('heading', { name: 'Bot accounts' }).waitFor();

    const username = page.getByLabel('Username', { exact: true });
    await username.fill('Bad.');
    await username.blur();
    await page.getByText('Must start with a lowercase letter.').waitFor();
    await username.fill(`ci-bot-${Date.now().toString(36)}`);
    const botName = await username.inputValue();
    await page.getByLabel('Display name').fill('CI bot');
    await page.getByRole('button', { name: 'Create bot' }).click();

    const reveal = page.getByRole('region', { name: `Access token for @${botName}` });
    await reveal.waitFor();
    const token = await reveal.getByLabel('Token').inputValue();
    assert.match(token, /^[a-z0-9]{26}$/);
    await reveal.getByText('It will not be shown again').waitFor();
    await reveal.getByRole('button', { name: 'Copy token' }).click();
    await reveal.getByText('Copied.').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), token);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, '02-bot-token-once');

    // The token works for the bot, and it is not shown anywhere once dismissed.
    const me = await fetch(`${server.url}/api/v4/users/me`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { username: string }).username, botName);
    await reveal.getByRole('button', { name: 'Done, I have copied it' }).click();
    assert.equal(await page.getByText(token).count(), 0);
    assert.equal(await page.locator(`input[value="${token}"]`).count(), 0);

    const row = page.getByRole('listitem', { name: `@${botName}` });
    await row.getByText('BOT', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Disable' }).click();
    await row.getByText('Disabled', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Enable' }).click();
    await row.getByRole('button', { name: 'New token' }).click();
    const second = await row.getByRole('region', { name: `Access token for @${botName}` }).getByLabel('Token').inputValue();
    assert.notEqual(second, token);
    await screenshot(page, '03-bots-list');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    assert.equal((await context.cookies()).find((c) => c.name === 'MMAUTHTOKEN')?.value ?? '', '');
  } finally {
    await context.close();
  }
});

test('when the page is 360 px wide, then the bots page has no horizontal scroll', async () => {
  const context = await newContext(browser, server.url, 360);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    await page.goto('/integrations/bots');
    await page.getByRole('heading', { name: 'Bot accounts' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `horizontal overflow of ${overflow}px`);
    await screenshot(page, '04-bots-360px');
  } finally {
    await context.close();
  }
});

test('when the keyboard is used, then the first Tab reaches the skip link, it moves focus to the page, and focused controls show an outline', async () => {
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    await page.goto('/integrations/bots');
    await page.getByRole('heading', { name: 'Bot accounts' }).waitFor();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    assert.equal(await skip.evaluate((el) => el === document.activeElement), true);
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const style = getComputedStyle(el);
      return { tag: el.tagName, style: style.outlineStyle, width: style.outlineWidth };
    });
    assert.notEqual(outline.style, 'none', `focused ${outline.tag} has no outline`);
    assert.notEqual(outline.width, '0px');
  } finally {
    await context.close();
  }
});

test('when a bot writes to someone directly, then the conversation is listed and headed with the BOT label, and the People list labels the bot too', async () => {
  const bot = await world.api.call<{ user_id: string; username: string }>('POST', '/bots', { username: `dm-bot-${Date.now().toString(36)}`, display_name: 'DM bot' });
  const { token } = await world.api.call<{ token: string }>('POST', `/users/${bot.user_id}/tokens`, { description: 'dm' });
  const asBot = async (path: string, body: unknown) => {
    const res = await fetch(`${server.url}/api/v4${path}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    const text = await res.text();
    assert.ok(res.ok, `${path}: ${res.status} ${text}`);
    return JSON.parse(text) as { id: string; name: string };
  };
  const dm = await asBot('/channels/direct', [bot.user_id, world.admin.id]);
  await asBot('/posts', { channel_id: dm.id, message: 'hello from the bot' });

  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    await page.goto(`/channels/${world.team.name}`);
    const entry = page.getByRole('list', { name: 'Direct messages' }).getByRole('link', { name: new RegExp(`@${bot.username}`) });
    await entry.getByText('BOT', { exact: true }).waitFor();
    await entry.click();
    const heading = page.getByRole('heading', { level: 1, name: new RegExp(`@${bot.username}`) });
    await heading.getByText('BOT', { exact: true }).waitFor();
    await page.getByRole('list', { name: `Messages in @${bot.username}` }).getByText('hello from the bot').waitFor();
    await screenshot(page, '05-direct-message-with-bot');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'People' }).click();
    await page.getByRole('listitem', { name: `@${bot.username}` }).getByText('BOT', { exact: true }).waitFor();
    assert.equal(await page.getByRole('listitem', { name: `@${world.admin.username}` }).getByText('BOT', { exact: true }).count(), 0);
    assert.deepEqual(await seriousViolations(page), []);
  } finally {
    await context.close();
  }
});
