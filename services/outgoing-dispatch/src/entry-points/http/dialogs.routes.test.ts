import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { newId } from '@switchyard/ids';
import { Topics, type InternalChannel } from '@switchyard/contracts';
import { assertError } from '../../test-support/assert-error';
import { EcdsaTriggerIds } from '../../adapters/crypto/ecdsa-trigger-ids';
import { fastDelivery, SECRET, type Caller, type Harness } from '../../test-support/harness';
import { integrationWorld, type IntegrationWorld } from '../../test-support/integration-world';
import type { Receiver } from '../../test-support/receiver';

const SIGNING = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const OPEN = '/api/v4/actions/dialogs/open';
const SUBMIT = '/api/v4/actions/dialogs/submit';
const LOOKUP = '/api/v4/actions/dialogs/lookup';

describe('interactive dialogs: open and submit', () => {
  let world: IntegrationWorld;
  let h: Harness;
  let receiver: Receiver;
  let channel: InternalChannel;
  let user: Caller;
  let outsider: Caller;
  let teamId: string;
  const triggers = new EcdsaTriggerIds(SECRET);

  before(async () => {
    world = await integrationWorld({ signingSecret: SIGNING, team: 'dlg', channel: { type: 'P', name: 'forms' }, member: 'filler' });
    ({ h, receiver, channel, teamId, member: user } = world);
    outsider = { id: h.world.user('stranger', { teamId }).id, roles: 'system_user' };
  });
  after(() => world.stop());
  beforeEach(() => world.reset());

  const dialogOf = (overrides: Record<string, unknown> = {}) => ({
    callback_id: 'cb-1',
    title: 'Report',
    state: `state-${newId()}`,
    elements: [
      { display_name: 'Name', name: 'name', type: 'text', min_length: 2, max_length: 20 },
      { display_name: 'Level', name: 'level', type: 'select', options: [{ text: 'Low', value: 'low' }], default: 'low' },
    ],
    ...overrides,
  });

  /** Opens a dialog for `as` with a fresh trigger; the url and the canonical dialog it was opened with. */
  const open = async (dialog: Record<string, unknown> = dialogOf(), as: Caller = user, path = '/dialog') => {
    const url = `${receiver.url}${path}`;
    const res = await h.request('POST', OPEN, { body: { trigger_id: triggers.issue(newId(), as.id, Date.now()), url, dialog } });
    assert.equal(res.statusCode, 200, res.body);
    return { url, dialog };
  };

  const submitOf = (opened: { url: string; dialog: Record<string, unknown> }, overrides: Record<string, unknown> = {}) => ({
    url: opened.url,
    callback_id: opened.dialog.callback_id,
    state: opened.dialog.state,
    channel_id: channel.id,
    team_id: teamId,
    submission: { name: 'Ada', level: 'low' },
    ...overrides,
  });

  it('when a dialog opens, then open_dialog carries the dialog in the reference encoding (zero values, unknown keys dropped)', async () => {
    const before = h.bus.published.length;
    const dialog = { title: 'T', elements: [{ name: 'a', display_name: 'A', type: 'bool', extra: 1 }], made_up: true };
    await open(dialog);
    const sent = h.bus.published.slice(before).filter((p) => p.topic === Topics.realtimeEvents && p.value.type === 'dialog.open');
    assert.equal(sent.length, 1);
    const payload = sent[0]?.value.payload as { user_id: string; dialog: { dialog: unknown } };
    assert.equal(payload.user_id, user.id);
    assert.deepEqual(payload.dialog.dialog, {
      callback_id: '',
      title: 'T',
      introduction_text: '',
      icon_url: '',
      elements: [
        { display_name: 'A', name: 'a', type: 'bool', subtype: '', default: '', placeholder: '', help_text: '', optional: false, min_length: 0, max_length: 0, data_source: '', options: null, multiselect: false },
      ],
      submit_label: '',
      notify_on_cancel: false,
      state: '',
    });
  });

  it('when the dialog has a value of the wrong JSON type, then 400 invalid dialog (the reference decode error) and nothing is sent', async () => {
    const before = h.bus.published.length;
    const bad = [
      { elements: 'x' },
      { elements: [{ name: 'a', optional: 'yes' }] },
      { elements: [{ name: 'a', min_length: '3' }] },
      { elements: [{ name: 'a', min_length: 1.5 }] },
      { elements: [{ name: 'a', options: [{ text: 1, value: 'v' }] }] },
      { notify_on_cancel: 'true' },
      { title: 5 },
    ];
    for (const dialog of bad) {
      const res = await h.request('POST', OPEN, { body: { trigger_id: triggers.issue(newId(), user.id, Date.now()), url: 'http://example.com/d', dialog } });
      assert.equal(res.statusCode, 400, JSON.stringify(dialog));
      assert.equal(res.json().id, 'api.context.invalid_body_param.app_error');
      assert.match(res.json().message, /dialog/);
    }
    const notJson = await h.request('POST', OPEN, { raw: '{"trigger_id":' });
    assertError(notJson, 400, 'api.context.invalid_body_param.app_error');
    assert.match(notJson.json().message, /dialog/);
    assert.equal(h.bus.published.slice(before).filter((p) => p.value.type === 'dialog.open').length, 0);
  });

  it('when the dialog breaks the reference limits (title, names, types, defaults), then it still opens, as the reference only logs them', async () => {
    const res = await h.request('POST', OPEN, {
      body: { trigger_id: triggers.issue(newId(), user.id, Date.now()), url: 'http://example.com/d', dialog: { title: 'x'.repeat(40), elements: [{ name: '', type: 'slider' }] } },
    });
    assert.equal(res.statusCode, 200);
  });

  it('when a submission has a field error, then the errors come back; a clean submission then closes the dialog', async () => {
    const opened = await open();
    receiver.respond(() => ({ body: JSON.stringify({ errors: { name: 'Name is taken' } }) }));
    const first = await h.request('POST', SUBMIT, { as: user, body: submitOf(opened) });
    assert.equal(first.statusCode, 200, first.body);
    assert.deepEqual(first.json(), { errors: { name: 'Name is taken' } });

    receiver.respond(() => ({ body: '' }));
    const second = await h.request('POST', SUBMIT, { as: user, body: submitOf(opened, { submission: { name: 'Grace', level: 'low' } }) });
    assert.equal(second.statusCode, 200);
    assert.deepEqual(second.json(), {});
    assert.equal(receiver.requests.length, 2);

    const request = receiver.requests[1];
    assert.ok(request);
    const body = JSON.parse(request.body) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), ['type', 'callback_id', 'state', 'user_id', 'channel_id', 'team_id', 'submission', 'cancelled']);
    assert.deepEqual(body, { type: 'dialog_submission', callback_id: 'cb-1', state: opened.dialog.state, user_id: user.id, channel_id: channel.id, team_id: teamId, submission: { name: 'Grace', level: 'low' }, cancelled: false });
    assert.equal(request.headers['content-type'], 'application/json');
    new Webhook(SIGNING).verify(request.body, request.headers as Record<string, string>);

    const replay = await h.request('POST', SUBMIT, { as: user, body: submitOf(opened) });
    assertError(replay, 403, 'api.context.permissions.app_error', 'a closed dialog cannot be submitted again');
    assert.equal(receiver.requests.length, 2);
  });

  it('when the integration answers a general error, then it comes back and the dialog stays open', async () => {
    const opened = await open();
    receiver.respond(() => ({ body: JSON.stringify({ error: 'Try later', ignored: 1 }) }));
    assert.deepEqual((await h.request('POST', SUBMIT, { as: user, body: submitOf(opened) })).json(), { error: 'Try later' });
    receiver.respond(() => ({ body: '{}' }));
    assert.equal((await h.request('POST', SUBMIT, { as: user, body: submitOf(opened) })).statusCode, 200);
  });

  it('when a client names a url, callback id or state no dialog was opened with, or another user submits, then 403 and nothing is sent', async () => {
    const opened = await open();
    const attempts: [Caller, Record<string, unknown>][] = [
      [user, { url: 'http://127.0.0.1:1/anything' }],
      [user, { url: `${opened.url}x` }],
      [user, { callback_id: 'other' }],
      [user, { state: 'forged' }],
      [outsider, {}],
    ];
    h.world.joinChannel(channel.id, outsider.id);
    for (const [as, change] of attempts) {
      const res = await h.request('POST', SUBMIT, { as, body: submitOf(opened, change) });
      assert.equal(res.statusCode, 403, JSON.stringify(change));
      assert.equal(res.json().id, 'api.context.permissions.app_error');
    }
    assert.equal(receiver.requests.length, 0);
  });

  it('when the client sends no team or another team, then the team is the channel\'s (11.10) and the integration gets that', async () => {
    for (const team_id of ['', h.world.team('elsewhere')]) {
      const opened = await open();
      const res = await h.request('POST', SUBMIT, { as: user, body: submitOf(opened, { team_id }) });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((JSON.parse(receiver.requests.at(-1)?.body ?? '{}') as { team_id?: string }).team_id, teamId);
    }
  });

  it('when the caller cannot read the channel, or has no session, then 403/401; an empty url is 400', async () => {
    const opened = await open();
    const stranger = { id: h.world.user('nobody', { teamId }).id, roles: 'system_user' };
    assert.equal((await h.request('POST', SUBMIT, { as: stranger, body: submitOf(opened) })).statusCode, 403);
    assert.equal((await h.request('POST', SUBMIT, { body: submitOf(opened) })).statusCode, 401);
    const noUrl = await h.request('POST', SUBMIT, { as: user, body: submitOf(opened, { url: '' }) });
    assert.equal(noUrl.statusCode, 400);
    assert.equal(noUrl.json().id, 'api.context.invalid_body_param.app_error');
    for (const body of [{ submission: 'x' }, { cancelled: 'yes' }, { channel_id: 7 }]) {
      const res = await h.request('POST', SUBMIT, { as: user, body: submitOf(opened, body) });
      assertError(res, 400, 'api.context.invalid_body_param.app_error', JSON.stringify(body));
      assert.match(res.json().message, /dialog/);
    }
    assertError(await h.request('POST', SUBMIT, { as: user, raw: '' }), 400, 'api.context.invalid_body_param.app_error');
    assert.equal(receiver.requests.length, 0);
  });

  it('when a dialog without notify_on_cancel is cancelled, then nothing is sent and it is closed', async () => {
    const opened = await open();
    const res = await h.request('POST', SUBMIT, { as: user, body: submitOf(opened, { cancelled: true, submission: {} }) });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), {});
    assert.equal(receiver.requests.length, 0);
    assertError(await h.request('POST', SUBMIT, { as: user, body: submitOf(opened) }), 403, 'api.context.permissions.app_error');
  });

  it('when a dialog with notify_on_cancel is cancelled, then the integration gets cancelled: true', async () => {
    const opened = await open(dialogOf({ notify_on_cancel: true }));
    const res = await h.request('POST', SUBMIT, { as: user, body: submitOf(opened, { cancelled: true, submission: {} }) });
    assert.equal(res.statusCode, 200);
    assert.equal(receiver.requests.length, 1);
    const body = JSON.parse(receiver.requests[0]?.body ?? '{}') as { cancelled: boolean; submission: unknown };
    assert.equal(body.cancelled, true);
    assert.deepEqual(body.submission, {});
  });

  it('when the integration fails, answers non-200, garbage or a bad type, then the reference errors', async () => {
    const cases: [{ status?: number; body?: string }, string][] = [
      [{ status: 404 }, 'api.post.do_action.action_integration.app_error'],
      [{ status: 204 }, 'api.post.do_action.action_integration.app_error'],
      [{ body: 'not json' }, 'app.submit_interactive_dialog.decode_json_error'],
      [{ body: '{"errors":{"a":1}}' }, 'app.submit_interactive_dialog.decode_json_error'],
      [{ body: '{"type":"weird"}' }, 'app.submit_interactive_dialog.invalid_response'],
      [{ body: '{"type":"ok","form":{"title":"x"}}' }, 'app.submit_interactive_dialog.invalid_response'],
      [{ body: '{"type":"form"}' }, 'app.submit_interactive_dialog.invalid_response'],
    ];
    for (const [answer, id] of cases) {
      const opened = await open();
      receiver.respond(() => answer);
      const res = await h.request('POST', SUBMIT, { as: user, body: submitOf(opened) });
      assert.equal(res.statusCode, 400, JSON.stringify(answer));
      assert.equal(res.json().id, id, JSON.stringify(answer));
    }
  });

  it('when the integration answers 429 or 503, then that status passes through with its Retry-After (capped at an hour); another 5xx becomes 502 (11.10)', async () => {
    const cases: [{ status: number; headers?: Record<string, string> }, number, string | undefined][] = [
      [{ status: 429, headers: { 'Retry-After': '7' } }, 429, '7'],
      [{ status: 503, headers: { 'Retry-After': '999999' } }, 503, '3600'],
      [{ status: 503 }, 503, undefined],
      [{ status: 500 }, 502, undefined],
      [{ status: 599 }, 502, undefined],
    ];
    for (const [answer, status, retryAfter] of cases) {
      const opened = await open();
      receiver.respond(() => answer);
      const res = await h.request('POST', SUBMIT, { as: user, body: submitOf(opened) });
      assert.equal(res.statusCode, status, JSON.stringify(answer));
      assert.equal(res.json().id, 'api.post.do_action.action_integration.app_error');
      assert.equal(res.headers['retry-after'], retryAfter, JSON.stringify(answer));
    }
  });

  it('when the integration continues with another form, then that form can be submitted with its own state', async () => {
    const opened = await open();
    const form = { callback_id: 'step-2', title: 'Step 2', state: 's2', elements: [{ display_name: 'Why', name: 'why', type: 'textarea' }] };
    receiver.respond(() => ({ body: JSON.stringify({ type: 'form', form }) }));
    const first = await h.request('POST', SUBMIT, { as: user, body: submitOf(opened) });
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.json().type, 'form');
    assert.equal(first.json().form.callback_id, 'step-2');
    receiver.respond(() => ({ body: '{}' }));
    assertError(await h.request('POST', SUBMIT, { as: user, body: submitOf(opened) }), 403, 'api.context.permissions.app_error', 'the first step is closed');
    const second = await h.request('POST', SUBMIT, { as: user, body: submitOf({ url: opened.url, dialog: form }, { submission: { why: 'because' } }) });
    assert.equal(second.statusCode, 200, second.body);
  });

  it('when a field changes (type refresh), then the request goes to the dialog\'s source_url with type refresh, and its form replaces the open dialog', async () => {
    const opened = await open(dialogOf({ source_url: `${receiver.url}/refresh` }));
    const refreshed = { callback_id: 'cb-1', title: 'Report', state: `state-${newId()}`, source_url: `${receiver.url}/refresh`, elements: [{ display_name: 'Why', name: 'why', type: 'text' }] };
    receiver.respond(() => ({ body: JSON.stringify({ type: 'form', form: refreshed }) }));
    const res = await h.request('POST', SUBMIT, { as: user, body: submitOf(opened, { type: 'refresh', url: `${receiver.url}/refresh`, submission: { name: 'A', selected_field: 'name' } }) });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().type, 'form');
    const sent = receiver.requests.at(-1);
    assert.equal(sent?.path, '/refresh');
    const body = JSON.parse(sent?.body ?? '{}') as { type: string; submission: Record<string, unknown> };
    assert.equal(body.type, 'refresh');
    assert.equal(body.submission.selected_field, 'name');
    receiver.respond(() => ({ body: '{}' }));
    const next = await h.request('POST', SUBMIT, { as: user, body: submitOf({ url: opened.url, dialog: refreshed }, { submission: { why: 'x' } }) });
    assert.equal(next.statusCode, 200, next.body);
    assert.equal(receiver.requests.at(-1)?.path, '/dialog', 'the submit URL stays the one the dialog was opened with');
    assertError(await h.request('POST', SUBMIT, { as: user, body: submitOf(opened) }), 403, 'api.context.permissions.app_error');
  });

  it('when a refresh names a URL that is not the dialog\'s source_url, or the dialog has none, then 403 and nothing is sent', async () => {
    const withSource = await open(dialogOf({ source_url: `${receiver.url}/refresh` }));
    const without = await open();
    for (const [opened, url] of [[withSource, `${receiver.url}/elsewhere`], [withSource, withSource.url], [without, `${receiver.url}/refresh`]] as const) {
      const res = await h.request('POST', SUBMIT, { as: user, body: submitOf(opened, { type: 'refresh', url }) });
      assertError(res, 403, 'api.context.permissions.app_error');
    }
    assert.equal(receiver.requests.length, 0);
  });

  it('when a dynamic select looks up options, then its data_source_url gets dialog_lookup with the user id and the items come back', async () => {
    const lookupUrl = `${receiver.url}/lookup`;
    const opened = await open(dialogOf({ elements: [{ display_name: 'Component', name: 'component', type: 'select', data_source: 'dynamic', data_source_url: lookupUrl, multiselect: true }] }));
    receiver.respond(() => ({ body: JSON.stringify({ items: [{ text: 'API', value: 'api' }, { text: 'Web', value: 'web' }] }) }));
    const res = await h.request('POST', LOOKUP, { as: user, body: submitOf(opened, { url: lookupUrl, submission: { query: 'a', selected_field: 'component' } }) });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { items: [{ text: 'API', value: 'api' }, { text: 'Web', value: 'web' }] });
    const sent = JSON.parse(receiver.requests.at(-1)?.body ?? '{}') as Record<string, unknown>;
    assert.equal(sent.type, 'dialog_lookup');
    assert.equal(sent.user_id, user.id);
    assert.equal(sent.url, undefined);
    assert.deepEqual(sent.submission, { query: 'a', selected_field: 'component' });
    assert.ok(receiver.requests.at(-1)?.headers['webhook-signature'], 'signed like every integration call');
    receiver.respond(() => ({ body: '' }));
    assert.deepEqual((await h.request('POST', LOOKUP, { as: user, body: submitOf(opened, { url: lookupUrl }) })).json(), { items: null });
    receiver.respond(() => ({ body: 'nope' }));
    assertError(await h.request('POST', LOOKUP, { as: user, body: submitOf(opened, { url: lookupUrl }) }), 400, 'app.lookup_interactive_dialog.decode_json_error');
    receiver.respond(() => ({ status: 429, headers: { 'Retry-After': '5' } }));
    const limited = await h.request('POST', LOOKUP, { as: user, body: submitOf(opened, { url: lookupUrl }) });
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.headers['retry-after'], '5');
  });

  it('when a lookup names a URL that is no dynamic select of an open dialog, another user\'s dialog, or no url, then nothing is sent', async () => {
    const lookupUrl = `${receiver.url}/lookup`;
    const opened = await open(dialogOf({ elements: [{ display_name: 'C', name: 'c', type: 'select', data_source: 'dynamic', data_source_url: lookupUrl }] }));
    assertError(await h.request('POST', LOOKUP, { as: user, body: submitOf(opened, { url: `${receiver.url}/other` }) }), 403, 'api.context.permissions.app_error');
    assertError(await h.request('POST', LOOKUP, { as: user, body: submitOf(opened, { url: opened.url }) }), 403, 'api.context.permissions.app_error');
    assertError(await h.request('POST', LOOKUP, { as: outsider, body: submitOf(opened, { url: lookupUrl }) }), 403, 'api.context.permissions.app_error');
    assertError(await h.request('POST', LOOKUP, { as: user, body: submitOf(opened, { url: '' }) }), 400, 'api.context.invalid_body_param.app_error');
    assertError(await h.request('POST', LOOKUP, { as: user, raw: '{' }), 400, 'api.context.invalid_body_param.app_error');
    assert.equal((await h.request('POST', LOOKUP, { body: submitOf(opened, { url: lookupUrl }) })).statusCode, 401);
    assert.equal(receiver.requests.length, 0);
  });

  it('when a submission carries file_ids (11.10), then only the caller\'s own live files pass, duplicates removed, and they reach the integration', async () => {
    const mine = newId();
    const theirs = newId();
    const gone = newId();
    h.world.files.set(mine, { user_id: user.id, delete_at: 0 });
    h.world.files.set(theirs, { user_id: outsider.id, delete_at: 0 });
    h.world.files.set(gone, { user_id: user.id, delete_at: 1 });
    const opened = await open();
    const ok = await h.request('POST', SUBMIT, { as: user, body: submitOf(opened, { file_ids: [mine, mine] }) });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual((JSON.parse(receiver.requests.at(-1)?.body ?? '{}') as { file_ids?: string[] }).file_ids, [mine]);
    const before = receiver.requests.length;
    const cases: [Record<string, unknown>, number, string][] = [
      [{ file_ids: [theirs] }, 403, 'app.submit_interactive_dialog.file_not_owned'],
      [{ file_ids: [gone] }, 400, 'app.submit_interactive_dialog.invalid_file_id'],
      [{ file_ids: [newId()] }, 400, 'app.submit_interactive_dialog.invalid_file_id'],
      [{ file_ids: Array.from({ length: 11 }, () => newId()) }, 400, 'app.submit_interactive_dialog.too_many_file_ids'],
      [{ submission: { logs: `${mine},${theirs}` } }, 403, 'app.submit_interactive_dialog.file_not_owned'],
      [{ submission: { ids: Array.from({ length: 51 }, () => newId()) } }, 400, 'app.submit_interactive_dialog.too_many_submission_ids'],
    ];
    for (const [change, status, id] of cases) {
      const opened2 = await open();
      assertError(await h.request('POST', SUBMIT, { as: user, body: submitOf(opened2, change) }), status, id);
    }
    assert.equal(receiver.requests.length, before, 'nothing was sent for a refused submission');
  });

  it('when a dynamic select\'s data_source_url is internal and not allow-listed, then the lookup is refused by the SSRF guard without a request', async () => {
    const lookupUrl = `${receiver.url}/lookup-internal`;
    const opened = await open(dialogOf({ elements: [{ display_name: 'C', name: 'c', type: 'select', data_source: 'dynamic', data_source_url: lookupUrl }] }));
    h.setConfig((c) => {
      c.ServiceSettings.AllowedUntrustedInternalConnections = '';
    });
    try {
      assertError(await h.request('POST', LOOKUP, { as: user, body: submitOf(opened, { url: lookupUrl }) }), 400, 'api.post.do_action.action_integration.app_error');
      assert.equal(receiver.requests.length, 0);
    } finally {
      h.setConfig(fastDelivery);
    }
  });

  it('when the dialog url is internal and not allow-listed, then the submit is refused without a request', async () => {
    const opened = await open();
    h.setConfig((c) => {
      c.ServiceSettings.AllowedUntrustedInternalConnections = '';
    });
    try {
      const res = await h.request('POST', SUBMIT, { as: user, body: submitOf(opened) });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().id, 'api.post.do_action.action_integration.app_error');
      assert.equal(receiver.requests.length, 0);
    } finally {
      h.setConfig(fastDelivery);
    }
  });

  it('when open or submit get odd bodies, then an AppError below 500, never a crash', async () => {
    const opened = await open();
    const odd: unknown[] = [null, [], 'text', 7, {}, { dialog: null, url: null, trigger_id: null }, { trigger_id: '', url: 'http://e/d' }, { trigger_id: 'x'.repeat(5000), url: 'http://e/d', dialog: { elements: [null, { options: [null] }] } }];
    for (const body of odd) {
      for (const [path, as] of [[OPEN, undefined], [SUBMIT, user]] as const) {
        const res = await h.request('POST', path, { ...(as ? { as } : {}), body });
        assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${path} ${JSON.stringify(body)}: ${res.statusCode} ${res.body}`);
        assert.equal(typeof res.json().id, 'string');
      }
    }
    const nulls = await h.request('POST', SUBMIT, { as: user, body: { ...submitOf(opened), submission: null, cancelled: null, state: opened.dialog.state } });
    assert.equal(nulls.statusCode, 200, 'null means not set');
    assert.deepEqual(JSON.parse(receiver.requests.at(-1)?.body ?? '{}').submission, null);
  });
});
