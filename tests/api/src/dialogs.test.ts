import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '@mattermost/types/channels';
import type { Team } from '@mattermost/types/teams';
import { Webhook } from 'standardwebhooks';
import { patchConfig, type AdminSession } from './support/fixtures';
import { givenIntegrationWorld, type IntegrationWorld } from './support/integration-world';
import { assertAppError, raw } from './support/http';
import { OfficialSocket } from './support/mm-websocket';
import type { OutgoingReceiver } from './support/outgoing-receiver';
import { postIn, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

interface OpenedDialog {
  trigger_id: string;
  url: string;
  dialog: { callback_id: string; title: string; state: string; notify_on_cancel: boolean; elements: { name: string; type: string }[] };
}

describe('interactive dialogs, end to end', { timeout: 300_000 }, () => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  let world: IntegrationWorld;
  let target: Target;
  let admin: AdminSession;
  let receiver: OutgoingReceiver;
  let team: Team;
  let channel: Channel;
  let member: Actor;
  let socket: OfficialSocket;

  before(async () => {
    world = await givenIntegrationWorld({ channelType: 'P', serviceSettings: { IntegrationSigningSecret: secret } });
    ({ target, admin, receiver, team, channel, member } = world);
    socket = new OfficialSocket(target.url, member.token);
    await socket.event('hello');
  });
  after(async () => {
    socket?.close();
    await world?.stop();
  });

  /** A button press gives the integration a fresh trigger id; the integration opens `dialog` with it (no session). */
  async function openFromButton(dialog: Record<string, unknown>, path = '/dialog'): Promise<OpenedDialog> {
    const actionPath = `/act-${randomBytes(4).toString('hex')}`;
    const post = await postIn(admin, channel.id, 'file a report', {
      props: { attachments: [{ actions: [{ id: 'report', name: 'Report', type: 'button', integration: { url: `${receiver.url}${actionPath}` } }] }] },
    });
    receiver.respond(() => ({ body: '{}' }));
    const clicked = (await member.client.doPostAction(post.id, 'report')) as { trigger_id?: string };
    const request = await receiver.waitFor((r) => r.path === actionPath);
    const triggerId = (JSON.parse(request.body) as { trigger_id: string }).trigger_id;
    const opened = await raw(target.url, 'POST', '/api/v4/actions/dialogs/open', { body: { trigger_id: triggerId, url: `${receiver.url}${path}`, dialog } });
    assert.equal(opened.status, 200, opened.text);
    const frame = await socket.event('open_dialog', (f) => (JSON.parse(String(f.data?.dialog)) as OpenedDialog).trigger_id === clicked.trigger_id);
    assert.equal(frame.broadcast?.user_id, member.id);
    return JSON.parse(String(frame.data?.dialog)) as OpenedDialog;
  }

  const submission = (opened: OpenedDialog, values: Record<string, unknown>, cancelled = false) => ({
    url: opened.url,
    callback_id: opened.dialog.callback_id,
    state: opened.dialog.state,
    channel_id: channel.id,
    team_id: team.id,
    submission: values,
    cancelled,
  });

  it('when a button opens a dialog, then open_dialog reaches the user; a field error comes back, then a clean submit closes it, signed', async () => {
    const state = `ticket-${randomBytes(4).toString('hex')}`;
    const opened = await openFromButton({
      callback_id: 'report',
      title: 'Report a bug',
      state,
      elements: [
        { display_name: 'Summary', name: 'summary', type: 'text', min_length: 3, max_length: 50 },
        { display_name: 'Severity', name: 'severity', type: 'radio', options: [{ text: 'High', value: 'high' }, { text: 'Low', value: 'low' }], default: 'low' },
      ],
    });
    assert.equal(opened.dialog.title, 'Report a bug');
    assert.equal(opened.dialog.state, state);
    assert.deepEqual(opened.dialog.elements.map((e) => e.type), ['text', 'radio']);

    receiver.respond((r) => (r.path === '/dialog' && (JSON.parse(r.body) as { submission: { summary: string } }).submission.summary === 'x' ? { body: JSON.stringify({ errors: { summary: 'Too short' } }) } : { body: '' }));
    const rejected = await member.client.submitInteractiveDialog(submission(opened, { summary: 'x', severity: 'high' }) as never);
    assert.deepEqual(rejected, { errors: { summary: 'Too short' } });
    const accepted = await member.client.submitInteractiveDialog(submission(opened, { summary: 'Crash on save', severity: 'high' }) as never);
    assert.deepEqual(accepted, {});

    const calls = receiver.requests.filter((r) => r.path === '/dialog');
    assert.equal(calls.length, 2);
    const last = calls[1];
    assert.ok(last);
    const verified = new Webhook(secret).verify(last.body, last.headers as Record<string, string>) as Record<string, unknown>;
    assert.deepEqual(verified, { type: 'dialog_submission', callback_id: 'report', state, user_id: member.id, channel_id: channel.id, team_id: team.id, submission: { summary: 'Crash on save', severity: 'high' }, cancelled: false });

    const again = await raw(target.url, 'POST', '/api/v4/actions/dialogs/submit', { token: member.token, body: submission(opened, { summary: 'again' }) });
    assertAppError(again, 403, 'api.context.permissions.app_error');
  });

  it('when a dialog is cancelled, then the integration hears of it only with notify_on_cancel', async () => {
    const quiet = await openFromButton({ callback_id: 'quiet', title: 'Quiet', state: 'q', elements: [] }, '/quiet');
    const before = receiver.requests.length;
    assert.deepEqual(await member.client.submitInteractiveDialog(submission(quiet, {}, true) as never), {});
    assert.equal(receiver.requests.length, before, 'no request for a cancel nobody asked for');

    const loud = await openFromButton({ callback_id: 'loud', title: 'Loud', state: 'l', elements: [], notify_on_cancel: true }, '/loud');
    receiver.respond(() => ({ body: '{}' }));
    assert.deepEqual(await member.client.submitInteractiveDialog(submission(loud, {}, true) as never), {});
    const request = await receiver.waitFor((r) => r.path === '/loud');
    const body = new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as { cancelled: boolean; callback_id: string };
    assert.equal(body.cancelled, true);
    assert.equal(body.callback_id, 'loud');
  });

  it('when a client names a URL or state no dialog was opened with, then 403 and the URL is never called', async () => {
    const opened = await openFromButton({ callback_id: 'safe', title: 'Safe', state: 'genuine', elements: [] }, '/safe');
    const before = receiver.requests.length;
    for (const change of [{ url: `${receiver.url}/elsewhere` }, { url: 'http://127.0.0.1:9/' }, { state: 'forged' }]) {
      const res = await raw(target.url, 'POST', '/api/v4/actions/dialogs/submit', { token: member.token, body: { ...submission(opened, {}), ...change } });
      assertAppError(res, 403, 'api.context.permissions.app_error');
    }
    assert.equal(receiver.requests.length, before);
  });

  it('when the dialog URL is a loopback address that is not allow-listed, then the submit is refused before any request', async () => {
    const opened = await openFromButton({ callback_id: 'ssrf', title: 'SSRF', state: 's', elements: [] }, '/ssrf');
    await patchConfig(admin.client, { ServiceSettings: { AllowedUntrustedInternalConnections: '' } });
    try {
      const res = await raw(target.url, 'POST', '/api/v4/actions/dialogs/submit', { token: member.token, body: submission(opened, {}) });
      assertAppError(res, 400, 'api.post.do_action.action_integration.app_error');
      assert.equal(receiver.requests.filter((r) => r.path === '/ssrf').length, 0);
    } finally {
      await patchConfig(admin.client, { ServiceSettings: { AllowedUntrustedInternalConnections: '127.0.0.1' } });
    }
  });

  it('when dialogs/open gets a dialog with wrong JSON types, no url or a garbage trigger, then the reference errors', async () => {
    const bad = await raw(target.url, 'POST', '/api/v4/actions/dialogs/open', { body: { trigger_id: 'x', url: 'http://127.0.0.1:1/', dialog: { elements: [{ name: 'a', optional: 'yes' }] } } });
    assertAppError(bad, 400, 'api.context.invalid_body_param.app_error');
    const noUrl = await raw(target.url, 'POST', '/api/v4/actions/dialogs/open', { body: { trigger_id: 'x', dialog: {} } });
    assertAppError(noUrl, 400, 'api.context.invalid_body_param.app_error');
    const garbage = await raw(target.url, 'POST', '/api/v4/actions/dialogs/open', { body: { trigger_id: '%%%', url: 'http://127.0.0.1:1/' } });
    assertAppError(garbage, 400, 'interactive_message.decode_trigger_id.base64_decode_failed');
  });
  it('when the client sends no team_id, then the team is derived from the channel (11.10) and the integration gets it', async () => {
    const opened = await openFromButton({ callback_id: 'derive', title: 'Derive', state: 'd', elements: [] }, '/derive');
    receiver.respond(() => ({ body: '{}' }));
    assert.deepEqual(await member.client.submitInteractiveDialog({ ...submission(opened, {}), team_id: '' } as never), {});
    const request = await receiver.waitFor((r) => r.path === '/derive');
    assert.equal((JSON.parse(request.body) as { team_id: string }).team_id, team.id);
  });

  it('when a dynamic select looks up its options, then only its data_source_url is called (dialog_lookup, signed) and the items come back; another URL is 403', async () => {
    const state = `lookup-${randomBytes(4).toString('hex')}`;
    const lookupUrl = `${receiver.url}/lookup-${state}`;
    const opened = await openFromButton({
      callback_id: 'pick', title: 'Pick', state,
      elements: [{ display_name: 'Component', name: 'component', type: 'select', data_source: 'dynamic', data_source_url: lookupUrl, multiselect: true }],
    });
    receiver.respond((r) => (r.path === `/lookup-${state}` ? { body: JSON.stringify({ items: [{ text: 'API', value: 'api' }] }) } : { body: '{}' }));
    const body = { ...submission(opened, { query: 'a', selected_field: 'component' }), url: lookupUrl };
    const res = await raw(target.url, 'POST', '/api/v4/actions/dialogs/lookup', { token: member.token, body });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json, { items: [{ text: 'API', value: 'api' }] });
    const request = await receiver.waitFor((r) => r.path === `/lookup-${state}`);
    const sent = new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as { type: string; user_id: string; submission: { query: string } };
    assert.equal(sent.type, 'dialog_lookup');
    assert.equal(sent.user_id, member.id);
    assert.equal(sent.submission.query, 'a');
    const before = receiver.requests.length;
    for (const url of [`${receiver.url}/elsewhere`, opened.url]) {
      assertAppError(await raw(target.url, 'POST', '/api/v4/actions/dialogs/lookup', { token: member.token, body: { ...body, url } }), 403, 'api.context.permissions.app_error');
    }
    assert.equal(receiver.requests.length, before);
  });

  it('when a field with refresh changes, then the dialog source_url gets type refresh and the new form replaces the dialog', async () => {
    const state = `refresh-${randomBytes(4).toString('hex')}`;
    const opened = await openFromButton({ callback_id: 'r', title: 'R', state, source_url: `${receiver.url}/refresh-${state}`, elements: [{ display_name: 'Kind', name: 'kind', type: 'select', options: [{ text: 'A', value: 'a' }], refresh: true }] }, '/refreshed-submit');
    const form = { callback_id: 'r', title: 'R', state: `${state}-2`, elements: [{ display_name: 'Why', name: 'why', type: 'text' }] };
    receiver.respond((r) => (r.path === `/refresh-${state}` ? { body: JSON.stringify({ type: 'form', form }) } : { body: '{}' }));
    const res = await raw(target.url, 'POST', '/api/v4/actions/dialogs/submit', { token: member.token, body: { ...submission(opened, { kind: 'a', selected_field: 'kind' }), type: 'refresh', url: `${receiver.url}/refresh-${state}` } });
    assert.equal(res.status, 200, res.text);
    assert.equal((res.json as { type: string }).type, 'form');
    const sent = JSON.parse((await receiver.waitFor((r) => r.path === `/refresh-${state}`)).body) as { type: string };
    assert.equal(sent.type, 'refresh');
    const next = await raw(target.url, 'POST', '/api/v4/actions/dialogs/submit', { token: member.token, body: { ...submission(opened, { why: 'because' }), state: `${state}-2` } });
    assert.equal(next.status, 200, next.text);
    await receiver.waitFor((r) => r.path === '/refreshed-submit');
  });

  it('when the integration answers 429 or a 500, then the client gets 429 with Retry-After capped, or 502 (11.10)', async () => {
    for (const [answer, status, retryAfter] of [[{ status: 429, headers: { 'Retry-After': '999999' } }, 429, '3600'], [{ status: 500 }, 502, null]] as const) {
      const opened = await openFromButton({ callback_id: 'busy', title: 'Busy', state: `busy-${randomBytes(4).toString('hex')}`, elements: [] }, '/busy');
      receiver.respond((r) => (r.path === '/busy' ? answer : { body: '{}' }));
      const res = await raw(target.url, 'POST', '/api/v4/actions/dialogs/submit', { token: member.token, body: submission(opened, {}) });
      assertAppError(res, status, 'api.post.do_action.action_integration.app_error');
      assert.equal(res.headers.get('retry-after'), retryAfter);
    }
  });
  it('when a dialog submission carries file_ids (11.10), then the caller\'s own upload reaches the integration and another user\'s file is 403', async () => {
    const uploadAs = async (token: string, name: string): Promise<string> => {
      const res = await fetch(`${target.url}/api/v4/files?channel_id=${channel.id}&filename=${name}`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' }, body: `contents of ${name}` });
      assert.equal(res.status, 201, await res.clone().text());
      return ((await res.json()) as { file_infos: { id: string }[] }).file_infos[0]?.id ?? '';
    };
    const mine = await uploadAs(member.token, 'mine.txt');
    const theirs = await uploadAs(admin.token, 'theirs.txt');
    const opened = await openFromButton({ callback_id: 'files', title: 'Files', state: `files-${randomBytes(4).toString('hex')}`, elements: [{ display_name: 'Logs', name: 'logs', type: 'file' }] }, '/with-files');
    receiver.respond(() => ({ body: '{}' }));
    const ok = await raw(target.url, 'POST', '/api/v4/actions/dialogs/submit', { token: member.token, body: { ...submission(opened, { logs: mine }), file_ids: [mine, mine] } });
    assert.equal(ok.status, 200, ok.text);
    const request = await receiver.waitFor((r) => r.path === '/with-files');
    assert.deepEqual((JSON.parse(request.body) as { file_ids: string[] }).file_ids, [mine]);
    const again = await openFromButton({ callback_id: 'files', title: 'Files', state: `files-${randomBytes(4).toString('hex')}`, elements: [{ display_name: 'Logs', name: 'logs', type: 'file' }] }, '/with-files');
    const before = receiver.requests.length;
    assertAppError(await raw(target.url, 'POST', '/api/v4/actions/dialogs/submit', { token: member.token, body: { ...submission(again, {}), file_ids: [theirs] } }), 403, 'app.submit_interactive_dialog.file_not_owned');
    assert.equal(receiver.requests.length, before);
  });
});
