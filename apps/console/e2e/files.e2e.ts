import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { arrangeWorld, type World } from './support/api';
import { launch, newContext, screenshot, seriousViolations, signIn } from './support/browser';
import { startServer, type RunningServer } from './support/server';

let server: RunningServer;
let browser: Browser;
let world: World;

/** A real 8×6 PNG (red), small enough to embed; the server decodes it for its preview. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAGCAIAAABxZ0isAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWM4ISeHFTEMpAQAaYgwwXposYcAAAAASUVORK5CYII=',
  'base64',
);
const TEXT = 'build 1842 passed\nall 311 tests green\n';

before(async () => {
  server = await startServer();
  world = await arrangeWorld(server.url);
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

/** Drops files on the composer as a browser does (a DataTransfer with File objects, then the drop event). */
async function dropFiles(page: Page, files: readonly { name: string; type: string; bytes: Buffer }[]): Promise<void> {
  const transfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
    return dt;
  }, files.map((f) => ({ name: f.name, type: f.type, b64: f.bytes.toString('base64') })));
  const composer = page.locator('form.composer').first();
  await composer.dispatchEvent('dragover', { dataTransfer: transfer });
  await composer.dispatchEvent('drop', { dataTransfer: transfer });
}

test('when a PNG is dropped and a text file picked, then both upload, go with the message, and the post shows the image inline and the text file as a download with the same bytes', async () => {
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    await openChannel(page);
    await dropFiles(page, [{ name: 'chart.png', type: 'image/png', bytes: PNG }]);
    await page.locator('input[type="file"][aria-label="Files to attach"]').first().setInputFiles({ name: 'build.txt', mimeType: 'text/plain', buffer: Buffer.from(TEXT) });
    const pending = page.getByRole('list', { name: 'Files to send' }).first();
    await pending.getByRole('listitem').filter({ hasText: 'chart.png' }).getByText('Ready').waitFor();
    await pending.getByRole('listitem').filter({ hasText: 'build.txt' }).getByText('Ready').waitFor();
    await page.getByLabel(`Write to ~${world.channel.name}`).fill('Nightly report');
    await page.getByRole('button', { name: 'Send', exact: true }).first().click();

    const post = page.getByRole('list', { name: `Messages in ~${world.channel.name}` }).getByRole('article').filter({ hasText: 'Nightly report' });
    const image = post.getByRole('img', { name: 'chart.png' });
    await image.waitFor();
    await page.waitForFunction((el) => el instanceof HTMLImageElement && el.complete && el.naturalWidth > 0, await image.elementHandle());
    assert.match((await image.getAttribute('src')) ?? '', /^\/api\/v4\/files\/[a-z0-9]{26}\/preview$/);
    const download = post.getByRole('link', { name: 'build.txt' });
    const href = (await download.getAttribute('href')) ?? '';
    assert.match(href, /^\/api\/v4\/files\/[a-z0-9]{26}\?download=1$/);
    const bytes = await page.evaluate(async (url) => (await fetch(url, { credentials: 'same-origin' })).text(), href);
    assert.equal(bytes, TEXT, 'the download gives back exactly the uploaded bytes');
    assert.equal(await pending.count(), 0, 'the composer is empty again after sending');

    // The post as the API has it: both files attached to it.
    const list = await world.api.call<{ order: string[]; posts: Record<string, { message: string; file_ids?: string[] }> }>('GET', `/channels/${world.channel.id}/posts`);
    const stored = Object.values(list.posts).find((p) => p.message === 'Nightly report');
    assert.equal(stored?.file_ids?.length, 2);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, 'files-01-image-and-download');
  } finally {
    await context.close();
  }
});

test('when a file is over the size limit, then it is listed as not uploaded with the server\'s reason, and can be removed', async () => {
  await world.api.call('PUT', '/config/patch', { FileSettings: { MaxFileSize: 2048 } });
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    await openChannel(page);
    await dropFiles(page, [{ name: 'huge.log', type: 'text/plain', bytes: Buffer.alloc(10_000, 'x') }]);
    const item = page.getByRole('list', { name: 'Files to send' }).first().getByRole('listitem').filter({ hasText: 'huge.log' });
    const alert = item.getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /^Not uploaded: .*\w+ \w+/);
    assert.doesNotMatch((await alert.textContent()) ?? '', /[{}]|app_error/);
    assert.equal(await page.getByRole('button', { name: 'Send', exact: true }).first().isDisabled(), true, 'nothing to send');
    await screenshot(page, 'files-02-too-large');
    await item.getByRole('button', { name: 'Remove huge.log' }).click();
    assert.equal(await page.getByRole('list', { name: 'Files to send' }).count(), 0);
  } finally {
    await world.api.call('PUT', '/config/patch', { FileSettings: { MaxFileSize: 104857600 } });
    await context.close();
  }
});
