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
const ticketDialog = {
  callback_id: 'ticket',
  title: 'New ticket',
  state: 'ticket-1',
  source_url: 'RECEIVER/refresh',
  elements: [
    { display_name: 'Parts', name: 'parts', type: 'select', multiselect: true, default: 'api', options: [{ text: 'API', value: 'api' }, { text: 'Web', value: 'web' }, { text: 'Database', value: 'db' }] },
    { display_name: 'Component', name: 'component', type: 'select', data_source: 'dynamic', data_source_url: 'RECEIVER/lookup' },
    { display_name: 'Start', name: 'start', type: 'date', min_date: '2026-01-01', max_date: '2030-12-31' },
    { display_name: 'Due', name: 'due', type: 'datetime', optional: true, datetime_config: { time_interval: 30 } },
    { display_name: 'Kind', name: 'kind', type: 'select', refresh: true, optional: true, options: [{ text: 'Bug', value: 'bug' }, { text: 'Outage', value: 'outage' }] },
    { display_name: 'Logs', name: 'logs', type: 'file', optional: true, allow_multiple: true },
  ],
};
const withReceiver = (dialog: object): object => JSON.parse(JSON.stringify(dialog).replace(/RECEIVER/g, receiver.url)) as object;
const COMPONENTS = [{ text: 'Billing API', value: 'billing' }, { text: 'Search', value: 'search' }, { text: 'Sign-in', value: 'signin' }];
const cancelDialog = { callback_id: 'feedback', title: 'Feedback', notify_on_cancel: true, elements: [{ display_name: 'Comment', name: 'comment', type: 'text' }] };

/** The integration: a button press opens a dialog with the request's trigger id; submissions are checked like a real service would. */
const receiver = new Receiver((req: Received) => {
  if (req.path === '/lookup') {
    const query = String((JSON.parse(req.body) as { submission: { query?: string } }).submission.query ?? '').toLowerCase();
    return { status: 200, json: { items: COMPONENTS.filter((c) => c.text.toLowerCase().includes(query)) } };
  }
  if (req.path === '/refresh') {
    const kind = (JSON.parse(req.body) as { submission: { kind?: string } }).submission.kind;
    const extra = kind === 'outage' ? [{ display_name: 'Customers affected', name: 'affected', type: 'text' }] : [];
    return { status: 200, json: { type: 'form', form: { ...withReceiver(ticketDialog), elements: [...ticketDialog.elements.map((e) => withReceiver(e)), ...extra] } } };
  }
  if (req.path === '/open-report' || req.path === '/open-feedback' || req.path === '/open-ticket') {
    const triggerId = (JSON.parse(req.body) as { trigger_id: string }).trigger_id;
    const dialog = req.path === '/open-report' ? reportDialog : req.path === '/open-ticket' ? withReceiver(ticketDialog) : cancelDialog;
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
            { id: 'ticket', name: 'New ticket', type: 'button', integration: { url: `${receiver.url}/open-ticket` } },
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

test('when a dialog uses the 11.x elements, then multiselect, dynamic select (lookup), date, datetime and a refreshing field work and the submission is the reference\'s', async () => {
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    await openChannel(page);
    await page.getByRole('button', { name: 'New ticket' }).click();
    const dialog = page.getByRole('dialog', { name: 'New ticket' });
    await dialog.waitFor();
    assert.deepEqual(await dialog.getByLabel('Parts', { exact: true }).evaluate((el) => [...(el as HTMLSelectElement).selectedOptions].map((o) => o.value)), ['api'], 'multiselect default');
    await dialog.getByLabel('Parts', { exact: true }).selectOption(['api', 'db']);
    await dialog.getByLabel('Search Component').fill('sea');
    // Before the lookup for 'sea' answers, the list may hold every option (Search among them): wait (bounded) for the filtered one.
    const component = dialog.getByLabel('Component', { exact: true });
    const optionTexts = () => component.evaluate((el) => [...(el as HTMLSelectElement).options].filter((o) => o.value !== '').map((o) => o.text));
    const lookupDeadline = Date.now() + 10_000;
    let shown = await optionTexts();
    while (shown.join() !== 'Search' && Date.now() < lookupDeadline) {
      await new Promise((r) => setTimeout(r, 50));
      shown = await optionTexts();
    }
    assert.deepEqual(shown, ['Search'], 'the lookup filtered by the query');
    await dialog.getByLabel('Component', { exact: true }).selectOption('search');
    await dialog.getByLabel('Start').fill('2025-06-01');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.getByText('Must be on or after 2026-01-01.').waitFor();
    await dialog.getByLabel('Start').fill('2027-03-15');
    await dialog.getByLabel('Due (optional)').fill('2027-03-20T14:30');
    await dialog.getByLabel('Kind (optional)').selectOption('outage');
    await dialog.getByLabel('Customers affected').waitFor();
    assert.deepEqual(await dialog.getByLabel('Parts', { exact: true }).evaluate((el) => [...(el as HTMLSelectElement).selectedOptions].map((o) => o.value)), ['api', 'db'], 'values kept across the refresh');
    const refresh = receiver.received.find((r) => r.path === '/refresh');
    assert.equal((JSON.parse(refresh?.body ?? '{}') as { type?: string }).type, 'refresh');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, '33-interactive-dialog-11x-elements');
    await dialog.getByLabel('Customers affected').fill('about 40');
    await dialog.getByLabel('Logs (optional)').setInputFiles([{ name: 'build.log', mimeType: 'text/plain', buffer: Buffer.from('step 1 ok\nstep 2 failed\n') }]);
    await dialog.getByText('Attached: build.log').waitFor();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const last = receiver.received.filter((r) => r.path === '/submit').map((r) => JSON.parse(r.body) as { callback_id: string; submission: Record<string, unknown> }).at(-1);
    assert.equal(last?.callback_id, 'ticket');
    assert.deepEqual(last?.submission.parts, ['api', 'db']);
    assert.equal(last?.submission.component, 'search');
    assert.equal(last?.submission.start, '2027-03-15');
    assert.match(String(last?.submission.due), /^2027-03-20T14:30:00[+-]\d{2}:\d{2}$/);
    assert.equal(last?.submission.kind, 'outage');
    assert.equal(last?.submission.affected, 'about 40');
    const fileIds = (receiver.received.filter((r) => r.path === '/submit').map((r) => JSON.parse(r.body) as { file_ids?: string[] }).at(-1))?.file_ids ?? [];
    assert.equal(fileIds.length, 1, 'the uploaded log is sent as file_ids');
    assert.equal(last?.submission.logs, fileIds[0]);
    const info = await world.api.call<{ name: string; user_id: string }>('GET', `/files/${fileIds[0]}/info`);
    assert.equal(info.name, 'build.log');
  } finally {
    await context.close();
  }
});
