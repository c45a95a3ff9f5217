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

const reportDialog = {
  callback_id: 'bug-report',
  title: 'Report a bug',
  introduction_text: 'Tell us **what broke**.',
  submit_label: 'File it',
  state: 'from-the-button',
  elements: [
    { display_name: 'Summary', name: 'summary', type: 'text', min_length: 3, max_length: 40, help_text: 'One line.' },
    { display_name: 'Details', name: 'details', type: 'textarea', optional: true, placeholder: 'Steps to reproduce' },
    { display_name: 'Severity', name: 'severity', type: 'select', default: 'low', options: [{ text: 'Low', value: 'low' }, { text: 'High', value: 'high' }] },
    { display_name: 'Area', name: 'area', type: 'radio', default: 'ui', options: [{ text: 'User interface', value: 'ui' }, { text: 'Server', value: 'server' }] },
    { display_name: 'Assignee', name: 'assignee', type: 'select', data_source: 'users', optional: true },
    { display_name: 'Urgent', name: 'urgent', type: 'bool', optional: true, placeholder: 'Page the on-call person' },
  ],
};
const cancelDialog = { callback_id: 'feedback', title: 'Feedback', notify_on_cancel: true, elements: [{ display_name: 'Comment', name: 'comment', type: 'text' }] };

/** The integration: a button press opens a dialog with the request's trigger id; submissions are checked like a real service would. */
const receiver = new Receiver((req: Received) => {
  if (req.path === '/open-report' || req.path === '/open-feedback') {
    const triggerId = (JSON.parse(req.body) as { trigger_id: string }).trigger_id;
    const dialog = req.path === '/open-report' ? reportDialog : cancelDialog;
    void fetch(`${server.url}/api/v4/actions/dialogs/open`, { method: 'POST', body: JSON.stringify({ trigger_id: triggerId, url: `${receiver.url}/submit`, dialog }) });
    return { status: 200, json: {} };
  }
  if (req.path === '/submit') {
    const body = JSON.parse(req.body) as { cancelled: boolean; submission: { summary?: string } };
    if (!body.cancelled && body.submission.summary === 'duplicate') return { status: 200, json: { errors: { summary: 'That bug is already filed.' } } };
    return { status: 200, json: {} };
  }
  return { status: 404 };
});

before(async () => {
  server = await startServer();
  world = await arrangeWorld(server.url);
  await receiver.start();
  await world.api.call('PUT', '/config/patch', { ServiceSettings: { AllowedUntrustedInternalConnections: '127.0.0.1' } });
  await world.api.call('POST', '/posts', {
    channel_id: world.channel.id,
    message: 'Found a problem?',
    props: {
      attachments: [
        {
          text: 'Use the buttons.',
          actions: [
            { id: 'report', name: 'Report a bug', type: 'button', integration: { url: `${receiver.url}/open-report` } },
            { id: 'feedback', name: 'Give feedback', type: 'button', integration: { url: `${receiver.url}/open-feedback` } },
          ],
        },
      ],
    },
  });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await receiver.stop();
  await server?.stop();
});

async function openChannel(page: Page): Promise<void> {
  await page.goto(`/channels/${world.team.name}/${world.channel.name}`);
  await page.getByRole('heading', { name: `~${world.channel.display_name}` }).waitFor();
  await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();
}

const submissions = () => receiver.received.filter((r) => r.path === '/submit').map((r) => JSON.parse(r.body) as { cancelled: boolean; callback_id: string; state: string; submission: Record<string, unknown> });

test('when a button opens a dialog, then each element is drawn with its default; client checks, the integration field error and a clean submit work', async () => {
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    await openChannel(page);
    await page.getByRole('button', { name: 'Report a bug' }).click();
    const dialog = page.getByRole('dialog', { name: 'Report a bug' });
    await dialog.waitFor();
    await dialog.locator('strong', { hasText: 'what broke' }).waitFor();
    assert.equal(await dialog.getByLabel('Severity').inputValue(), 'low', 'select default');
    assert.equal(await dialog.getByRole('radio', { name: 'User interface' }).isChecked(), true, 'radio default');
    assert.equal(await dialog.getByLabel('Urgent (optional): Page the on-call person').isChecked(), false);
    await dialog.getByLabel('Details (optional)').waitFor();
    await dialog.getByText('One line.').waitFor();
    // The users of a data_source select arrive from GET /users after the dialog is drawn: wait for them, then count.
    await dialog.getByLabel('Assignee (optional)').locator('option').nth(1).waitFor({ state: 'attached' });
    assert.ok((await dialog.getByLabel('Assignee (optional)').getByRole('option').count()) >= 2, 'users from data_source');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, '30-interactive-dialog');

    await dialog.getByRole('button', { name: 'File it' }).click();
    await dialog.getByText('This field is required.').waitFor();
    await dialog.getByLabel('Summary').fill('ab');
    await dialog.getByRole('button', { name: 'File it' }).click();
    await dialog.getByText('Must be at least 3 characters.').waitFor();
    assert.equal(submissions().length, 0, 'nothing sent while the form is not valid');

    await dialog.getByLabel('Summary').fill('duplicate');
    await dialog.getByRole('button', { name: 'File it' }).click();
    await dialog.getByText('That bug is already filed.').waitFor();
    await screenshot(page, '31-interactive-dialog-field-error');

    await dialog.getByLabel('Summary').fill('Crash on save');
    await dialog.getByLabel('Severity').selectOption('high');
    await dialog.getByRole('radio', { name: 'Server' }).check();
    await dialog.getByLabel('Urgent (optional): Page the on-call person').check();
    await dialog.getByRole('button', { name: 'File it' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const last = submissions().at(-1);
    assert.equal(last?.callback_id, 'bug-report');
    assert.equal(last?.state, 'from-the-button');
    assert.deepEqual(last?.submission, { summary: 'Crash on save', severity: 'high', area: 'server', urgent: true });
  } finally {
    await context.close();
  }
});

test('when a dialog with notify_on_cancel is cancelled on a 360 px screen, then the integration hears cancelled: true and the dialog closes', async () => {
  const context = await newContext(browser, server.url, 360);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    await openChannel(page);
    await page.getByRole('button', { name: 'Give feedback' }).click();
    const dialog = page.getByRole('dialog', { name: 'Feedback' });
    await dialog.waitFor();
    const box = await dialog.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 360, `the dialog fits the screen: ${JSON.stringify(box)}`);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, '32-interactive-dialog-360px');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const deadline = Date.now() + 10_000;
    while (!submissions().some((s) => s.callback_id === 'feedback') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const cancelled = submissions().find((s) => s.callback_id === 'feedback');
    assert.equal(cancelled?.cancelled, true);
  } finally {
    await context.close();
  }
});
