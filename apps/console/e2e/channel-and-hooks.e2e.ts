import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { arrangeWorld, type World } from './support/api';
import { launch, newContext, screenshot, seriousViolations, signIn } from './support/browser';
import { curlPostJson } from './support/curl';
import { Receiver } from './support/receiver';
import { startServer, type RunningServer } from './support/server';

let server: RunningServer;
let browser: Browser;
let world: World;
/** The integration behind the attachment buttons and the outgoing webhook. */
const receiver = new Receiver((req) => {
  if (req.path === '/action') {
    const context = (JSON.parse(req.body) as { context?: { ticket?: string } }).context;
    return { status: 200, json: { update: { message: `Ticket ${context?.ticket ?? '?'} approved`, props: { attachments: [] } }, ephemeral_text: 'You approved the ticket.' } };
  }
  if (req.path === '/outgoing') return { status: 200, json: { text: 'pong from the receiver' } };
  return { status: 404 };
});

before(async () => {
  server = await startServer();
  world = await arrangeWorld(server.url);
  await receiver.start();
  // The receiver is on loopback: allowed explicitly, as an administrator would.
  await world.api.call('PUT', '/config/patch', { ServiceSettings: { AllowedUntrustedInternalConnections: '127.0.0.1', EnablePostUsernameOverride: false } });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await receiver.stop();
  await server?.stop();
});

async function pickTeam(page: Page): Promise<void> {
  await page.getByLabel('Team', { exact: true }).selectOption({ label: world.team.display_name });
}

async function openChannel(page: Page): Promise<void> {
  await page.goto(`/channels/${world.team.name}/${world.channel.name}`);
  await page.getByRole('heading', { name: `~${world.channel.display_name}` }).waitFor();
  await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();
}

/** The posts list of the open channel. */
const messages = (page: Page) => page.getByRole('list', { name: `Messages in ~${world.channel.name}` });

test('when an incoming webhook is created and posted to with curl, then its post appears live with the BOT label and the attachment; pressing its button shows the update and the ephemeral answer', async () => {
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Incoming webhooks' }).click();
    await pickTeam(page);
    const form = page.getByRole('form', { name: 'Create incoming webhook' });
    await form.getByLabel('Title').fill('t'.repeat(65));
    await form.getByText('At most 64 characters (now 65).').waitFor();
    await form.getByLabel('Description').fill('d'.repeat(501));
    await form.getByText('At most 500 characters (now 501).').waitFor();
    await form.getByLabel('Title').fill('Deploys');
    await form.getByLabel('Description').fill('Deploy notices from CI');
    await form.getByLabel('Channel', { exact: true }).selectOption({ label: world.channel.display_name });
    await form.getByRole('button', { name: 'Create incoming webhook' }).click();
    const row = page.getByRole('listitem', { name: 'Deploys' });
    const url = ((await row.getByLabel('Webhook URL').textContent()) ?? '').trim();
    assert.match(url, new RegExp(`^${server.url}/hooks/[a-z0-9]{26}$`));
    await row.getByRole('button', { name: 'Send test message' }).click();
    await row.getByText('Test message sent').waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, '10-incoming-webhooks');

    await openChannel(page);
    await messages(page).getByText('Test message from the Switchyard console').waitFor();
    const ticket = `T-${Date.now().toString(36)}`;
    assert.equal(
      await curlPostJson(url, {
        text: `Deploy of **${ticket}** needs approval @${world.admin.username}`,
        attachments: [
          {
            fallback: 'Approve the deploy',
            color: '#ff8800',
            pretext: 'Approval needed',
            author_name: 'CI',
            title: `Release ${ticket}`,
            title_link: 'https://ci.example/release',
            text: 'Everything is **green**.',
            fields: [
              { title: 'Env', value: 'prod', short: true },
              { title: 'Region', value: 'eu-west', short: true },
            ],
            footer: 'ci.example',
            actions: [
              { id: 'approve', name: 'Approve', type: 'button', style: 'primary', integration: { url: `${receiver.url}/action`, context: { ticket } } },
              { id: 'later', name: 'Later', type: 'button', disabled: true, integration: { url: `${receiver.url}/action` } },
            ],
          },
        ],
      }),
      'ok',
    );
    // Live: the page is not reloaded; the WebSocket brings the post.
    const post = messages(page).getByRole('article').filter({ hasText: `Release ${ticket}` });
    await post.waitFor();
    await post.getByText('BOT', { exact: true }).waitFor();
    await post.getByRole('heading', { name: `Release ${ticket}` }).getByRole('link').waitFor();
    await post.getByText('eu-west').waitFor();
    assert.equal(await post.locator('strong', { hasText: ticket }).count(), 1, 'Markdown rendered');
    assert.equal(await post.getByRole('button', { name: 'Later' }).isDisabled(), true);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, '11-channel-webhook-post');

    await post.getByRole('button', { name: 'Approve' }).click();
    await messages(page).getByText(`Ticket ${ticket} approved`).waitFor();
    const answer = messages(page).getByRole('article').filter({ hasText: 'You approved the ticket.' });
    await answer.getByText('(Only visible to you)').waitFor();
    assert.equal(await messages(page).getByRole('button', { name: 'Approve' }).count(), 0, 'the update replaced the buttons');
    const call = receiver.received.find((r) => r.path === '/action');
    assert.equal((JSON.parse(call?.body ?? '{}') as { context?: { ticket?: string } }).context?.ticket, ticket);
    await screenshot(page, '12-action-update-and-ephemeral');
  } finally {
    await context.close();
  }
});

test('when an outgoing webhook calls a local receiver, then its delivery is in the log; with the receiver stopped the failure shows, and redelivering succeeds once it is back', async () => {
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await signIn(page, world.admin.username, world.admin.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Outgoing webhooks' }).click();
    await pickTeam(page);
    const form = page.getByRole('form', { name: 'Create outgoing webhook' });
    await form.getByLabel('Title').fill('Ping');
    await form.getByLabel('Content type').selectOption('application/json');
    await form.getByLabel('Trigger words').fill('ping');
    await form.getByLabel('Callback URLs').fill(`${receiver.url}/outgoing`);
    await form.getByRole('button', { name: 'Create outgoing webhook' }).click();
    const row = page.getByRole('listitem', { name: 'Ping' });
    const token = ((await row.getByLabel('Token', { exact: true }).textContent()) ?? '').trim();
    assert.match(token, /^[a-z0-9]{26}$/);
    await row.getByRole('button', { name: 'Regenerate token' }).click();
    await row.getByLabel('Token', { exact: true }).filter({ hasNotText: token }).waitFor();

    await openChannel(page);
    await page.getByLabel(`Write to ~${world.channel.name}`).fill('ping one');
    await page.getByLabel(`Write to ~${world.channel.name}`).press('Enter');
    await messages(page).getByText('pong from the receiver').waitFor();
    const first = receiver.received.filter((r) => r.path === '/outgoing').at(-1);
    assert.equal((JSON.parse(first?.body ?? '{}') as { trigger_word?: string }).trigger_word, 'ping');

    await page.goto('/integrations/outgoing');
    await pickTeam(page);
    const hook = page.getByRole('listitem', { name: 'Ping' });
    await hook.getByRole('button', { name: 'Delivery log' }).click();
    const log = hook.getByRole('region', { name: 'Delivery log' });
    await log.getByRole('row').filter({ hasText: 'Delivered (HTTP 200)' }).waitFor();

    await receiver.stop();
    await openChannel(page);
    await page.getByLabel(`Write to ~${world.channel.name}`).fill('ping two');
    await page.getByLabel(`Write to ~${world.channel.name}`).press('Enter');
    await messages(page).getByText('ping two').waitFor();
    await page.goto('/integrations/outgoing');
    await pickTeam(page);
    await hook.getByRole('button', { name: 'Delivery log' }).click();
    const failed = log.getByRole('row').nth(1);
    await failed.filter({ hasText: /Failed/ }).waitFor();
    const cells = await failed.getByRole('cell').allTextContents();
    assert.notEqual(cells[5], '—', 'the last error is shown');
    assert.ok(Number(cells[3]) >= 1, 'attempts counted');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, '13-delivery-log-failure');

    const before = receiver.received.length;
    await receiver.start();
    await failed.getByRole('button', { name: 'Redeliver' }).click();
    await failed.filter({ hasText: 'Delivered (HTTP 200)' }).waitFor();
    assert.ok(receiver.received.length > before, 'the receiver got the redelivery');
    await screenshot(page, '14-delivery-log-redelivered');
  } finally {
    await context.close();
  }
});

test('when an admin turns on username override in the System console, then a webhook post shows the name it asks for, still with the BOT label', async () => {
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    const hook = await world.api.call<{ id: string }>('POST', '/hooks/incoming', { channel_id: world.channel.id, display_name: 'Override check' });
    await signIn(page, world.admin.username, world.admin.password);
    await openChannel(page);
    await curlPostJson(`${server.url}/hooks/${hook.id}`, { text: 'before the switch', username: 'deploy-robot' });
    const before = messages(page).getByRole('article').filter({ hasText: 'before the switch' });
    await before.waitFor();
    assert.equal(await before.getByText('deploy-robot').count(), 0);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'System console' }).click();
    const toggle = page.getByRole('checkbox', { name: 'Enable integrations to override usernames' });
    assert.equal(await toggle.isChecked(), false);
    await toggle.check();
    await page.getByText('Saved; in effect now.').waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, '15-system-console');
    await page.reload();
    assert.equal(await page.getByRole('checkbox', { name: 'Enable integrations to override usernames' }).isChecked(), true);

    await openChannel(page);
    await curlPostJson(`${server.url}/hooks/${hook.id}`, { text: 'after the switch', username: 'deploy-robot' });
    const after = messages(page).getByRole('article').filter({ hasText: 'after the switch' });
    await after.getByText('deploy-robot', { exact: true }).waitFor();
    await after.getByText('BOT', { exact: true }).waitFor();
    await screenshot(page, '16-username-override');
  } finally {
    await context.close();
  }
});

test('when a post carries HTML, script links and event handlers, then they are shown inert: no script runs and no javascript: link exists', async () => {
  const context = await newContext(browser, server.url);
  const page = await context.newPage();
  try {
    await page.addInitScript(() => {
      (window as unknown as { pwned: number }).pwned = 0;
    });
    const hook = await world.api.call<{ id: string }>('POST', '/hooks/incoming', { channel_id: world.channel.id, display_name: 'Hostile' });
    await signIn(page, world.admin.username, world.admin.password);
    await openChannel(page);
    await curlPostJson(`${server.url}/hooks/${hook.id}`, {
      text: 'hostile <img src=x onerror="window.pwned=1"> [click](javascript:window.pwned=2) <script>window.pwned=3</script> <b onmouseover="window.pwned=4">bold</b>',
      attachments: [{ title: 'evil', title_link: 'javascript:window.pwned=5', text: '<svg onload="window.pwned=6"></svg> [x](javascript:window.pwned=7)' }],
    });
    const post = messages(page).getByRole('article').filter({ hasText: 'hostile' });
    await post.waitFor();
    await post.getByText('bold').hover();
    assert.equal(await post.getByRole('link', { name: 'click' }).count(), 0, 'the javascript: link is not a link');
    assert.equal(await page.evaluate(() => (window as unknown as { pwned: number }).pwned), 0);
    assert.equal(await post.locator('[href^="javascript:"], [onerror], [onload], [onmouseover], script').count(), 0);
  } finally {
    await context.close();
  }
});
