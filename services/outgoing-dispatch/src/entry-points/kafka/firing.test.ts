import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { envelope, Topics, type InternalChannel, type InternalUser, type PostEventPayload } from '@switchyard/contracts';
import { fireHooks } from '../../domain/firing/fire-hooks.usecase';
import { eventually, fastDelivery, harness, type Caller, type Harness } from '../../test-support/harness';
import { startReceiver, type Receiver } from '../../test-support/receiver';

describe('firing outgoing hooks from post.created', () => {
  let h: Harness;
  let receiver: Receiver;
  let teamId: string;
  let admin: Caller;
  let author: InternalUser;
  let channel: InternalChannel;

  before(async () => {
    h = await harness();
    h.setConfig(fastDelivery);
    receiver = await startReceiver();
    teamId = h.world.team('fire');
    admin = { id: h.world.user('fireadmin').id, roles: 'system_admin system_user' };
    author = h.world.user('alice', { teamId });
    channel = h.world.channel(teamId, 'O', 'town');
  });
  after(async () => {
    await h.stop();
    await receiver.close();
  });
  beforeEach(() => {
    receiver.requests.length = 0;
    receiver.respond(() => ({ status: 200, body: '' }));
  });

  const createHook = async (body: Record<string, unknown>) => {
    const res = await h.request('POST', '/api/v4/hooks/outgoing', { as: admin, body: { team_id: teamId, callback_urls: [`${receiver.url}/cb`], ...body } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as { id: string; token: string; signing_secret: string };
  };
  const deleteHook = (id: string) => h.request('DELETE', `/api/v4/hooks/outgoing/${id}`, { as: admin });
  /** Posts each message and waits for the deliveries of the last one (matched or not) to settle. */
  const postAndSettle = async (target: InternalChannel, message: string, overrides = {}) => {
    const post = h.world.post(target, author.id, message);
    await h.publishPost(post, target, author, overrides);
    // A marker hook that always fires in a dedicated channel tells us the event was handled.
    return post;
  };
  const received = (count: number) => eventually(() => receiver.requests.length >= count && receiver.requests, 20_000, `${count} request(s)`);
  /**
   * Waits until everything published so far is handled: a control post in each channel (posts.events keeps
   * per-channel order) fires a control hook; then no delivery may be pending.
   */
  const quiet = async (...channels: InternalChannel[]) => {
    const hook = await createHook({ trigger_words: ['zzcontrol'], callback_urls: [`${receiver.url}/control`] });
    try {
      const before = receiver.requests.filter((r) => r.path === '/control').length;
      for (const target of channels) await h.publishPost(h.world.post(target, author.id, 'zzcontrol'), target, author);
      await eventually(() => receiver.requests.filter((r) => r.path === '/control').length >= before + channels.length, 20_000, 'control requests');
      await eventually(async () => (await h.app.deps.deliveries.nextDueAt()) === undefined, 20_000, 'no pending delivery');
    } finally {
      await deleteHook(hook.id);
    }
    return receiver.requests.filter((r) => r.path !== '/control');
  };

  it('when a channel-only hook exists, then every post in that channel fires it with an empty trigger word and JSON fields', async () => {
    const hook = await createHook({ channel_id: channel.id, content_type: 'application/json' });
    const post = await postAndSettle(channel, 'hello there world');
    const [request] = await received(1);
    await deleteHook(hook.id);
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers.accept, 'application/json');
    assert.equal(request.headers['user-agent'], 'Mattermost-Bot/1.1');
    const body = JSON.parse(request.body) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), ['token', 'team_id', 'team_domain', 'channel_id', 'channel_name', 'timestamp', 'user_id', 'user_name', 'post_id', 'text', 'trigger_word', 'file_ids', 'root_id']);
    assert.equal(body.token, hook.token);
    assert.equal(body.team_id, teamId);
    assert.equal(body.team_domain, 'fire');
    assert.equal(body.channel_id, channel.id);
    assert.equal(body.channel_name, 'town');
    assert.equal(body.timestamp, post.create_at);
    assert.equal(body.user_id, author.id);
    assert.equal(body.user_name, 'alice');
    assert.equal(body.post_id, post.id);
    assert.equal(body.text, 'hello there world');
    assert.equal(body.trigger_word, '');
    assert.equal(body.file_ids, '');
  });

  it('when the hook is form-encoded, then the timestamp is in seconds, file_ids comma-joined and the signature verifies', async () => {
    const hook = await createHook({ trigger_words: ['deploy'] });
    const post = { ...h.world.post(channel, author.id, 'deploy now please'), file_ids: ['f1', 'f2'] };
    await h.publishPost(post, channel, author);
    const [request] = await received(1);
    await deleteHook(hook.id);
    assert.ok(request);
    assert.equal(request.headers['content-type'], 'application/x-www-form-urlencoded');
    const form = new URLSearchParams(request.body);
    assert.equal(form.get('timestamp'), String(Math.floor(post.create_at / 1000)));
    assert.equal(form.get('file_ids'), 'f1,f2');
    assert.equal(form.get('trigger_word'), 'deploy');
    assert.equal(form.get('text'), 'deploy now please');
    assert.equal(form.get('token'), hook.token);
    assert.deepEqual([...form.keys()], [...form.keys()].sort());
    const headers = { 'webhook-id': String(request.headers['webhook-id']), 'webhook-timestamp': String(request.headers['webhook-timestamp']), 'webhook-signature': String(request.headers['webhook-signature']) };
    assert.doesNotThrow(() => new Webhook(hook.signing_secret).verify(request.body, headers, { jsonParse: false }));
    assert.throws(() => new Webhook(hook.signing_secret).verify(`${request.body}x`, headers, { jsonParse: false }));
  });

  it('when trigger words are exact (0) or prefix (1), then only the first word counts, case-sensitively', async () => {
    const exact = await createHook({ trigger_words: ['build'], trigger_when: 0, callback_urls: [`${receiver.url}/exact`] });
    const prefix = await createHook({ trigger_words: ['ship'], trigger_when: 1, callback_urls: [`${receiver.url}/prefix`] });
    const other = h.world.channel(teamId, 'O');
    for (const message of ['build', 'builder x', 'please build', 'Build', 'shipit now', 'ship', 'go ship', 'Ship']) {
      await h.publishPost(h.world.post(other, author.id, message), other, author);
    }
    const got = await quiet(other);
    await deleteHook(exact.id);
    await deleteHook(prefix.id);
    const texts = (path: string) => got.filter((r) => r.path === path).map((r) => new URLSearchParams(r.body).get('text')).sort();
    assert.deepEqual(texts('/exact'), ['build']);
    assert.deepEqual(texts('/prefix'), ['ship', 'shipit now']);
    assert.deepEqual(got.filter((r) => r.path === '/prefix').map((r) => new URLSearchParams(r.body).get('trigger_word')), ['ship', 'ship']);
  });

  it('when a hook has both a channel and trigger words, then a post must satisfy both', async () => {
    const hook = await createHook({ channel_id: channel.id, trigger_words: ['both'], callback_urls: [`${receiver.url}/both`] });
    const other = h.world.channel(teamId, 'O');
    await h.publishPost(h.world.post(other, author.id, 'both elsewhere'), other, author);
    await h.publishPost(h.world.post(channel, author.id, 'not matching'), channel, author);
    await h.publishPost(h.world.post(channel, author.id, 'both here'), channel, author);
    const got = (await quiet(other, channel)).filter((r) => r.path === '/both');
    await deleteHook(hook.id);
    assert.deepEqual(got.map((r) => new URLSearchParams(r.body).get('text')), ['both here']);
  });

  it('when posts come from webhooks, the system, private channels, DMs or other teams, then nothing fires', async () => {
    const hook = await createHook({ trigger_words: ['never'], callback_urls: [`${receiver.url}/never`] });
    const privateChannel = h.world.channel(teamId, 'P');
    const dm: InternalChannel = { ...h.world.channel(teamId, 'D'), team_id: '', team_name: '' };
    const foreign = h.world.channel(h.world.team('elsewhere'), 'O');
    const event = (target: InternalChannel, overrides: Partial<PostEventPayload> = {}, type = ''): PostEventPayload => ({
      post: { ...h.world.post(target, author.id, 'never'), type },
      channel: target,
      team: target.team_id === '' ? null : { id: target.team_id, name: target.team_name },
      author: { id: author.id, username: author.username, is_bot: false },
      source: 'api',
      from_webhook: false,
      is_system: false,
      ...overrides,
    });
    const excluded = [
      event(channel, { source: 'incoming_webhook', from_webhook: true }),
      event(channel, { source: 'outgoing_webhook', from_webhook: true }),
      event(channel, { source: 'system', is_system: true }),
      event(channel, {}, 'system_join_channel'),
      event(privateChannel),
      event(dm),
      event(foreign),
      { ...event(foreign), team: { id: teamId, name: 'fire' } },
    ];
    for (const e of excluded) assert.deepEqual(await fireHooks(h.app.deps, e), [], `${e.channel.type} ${e.source} ${e.post.type}`);
    // The same posts through the bus: nothing reaches the receiver either.
    for (const e of excluded.slice(0, 4)) await h.bus.publish(Topics.postsEvents, [{ key: e.channel.id, value: envelope('post.created', e) }]);
    const got = (await quiet(channel)).filter((r) => r.path === '/never');
    assert.deepEqual(got, []);
    const control = await fireHooks(h.app.deps, event(channel));
    assert.equal(control.length, 1);
    await eventually(() => receiver.requests.some((r) => r.path === '/never'), 20_000, 'the control delivery');
    await deleteHook(hook.id);
  });

  it('when a hook has several callback URLs, then each gets the post once', async () => {
    const hook = await createHook({ trigger_words: ['multi'], callback_urls: [`${receiver.url}/a`, `${receiver.url}/b`, `${receiver.url}/c`] });
    await h.publishPost(h.world.post(channel, author.id, 'multi'), channel, author);
    // Settled first (each delivery recorded delivered, then nothing pending), so a late second copy is counted.
    const deliveries = async () => (await h.request('GET', `/api/v4/hooks/outgoing/${hook.id}/deliveries`, { as: admin })).json() as { id: string; status: string }[];
    await eventually(async () => {
      const recorded = await deliveries();
      return recorded.length === 3 && recorded.every((d) => d.status === 'delivered');
    }, 20_000, 'three deliveries recorded delivered');
    const got = await quiet(channel);
    const recorded = await deliveries();
    await deleteHook(hook.id);
    assert.equal(recorded.length, 3, 'one delivery per URL');
    assert.equal(got.length, 3, 'exactly one request per URL');
    assert.deepEqual(got.map((r) => r.path).sort(), ['/a', '/b', '/c']);
    assert.deepEqual(got.map((r) => r.headers['webhook-id']).sort(), recorded.map((d) => d.id).sort(), 'each request carries its own delivery id');
  });

  it('when the receiver answers text as a comment with overrides on, then posts stores a threaded webhook post', async () => {
    h.setConfig((c) => {
      c.ServiceSettings.EnablePostUsernameOverride = true;
      c.ServiceSettings.EnablePostIconOverride = true;
    });
    const hook = await createHook({ trigger_words: ['ask'], display_name: 'Asker', username: 'hookname', icon_url: 'http://icons/h.png' });
    receiver.respond(() => ({ body: JSON.stringify({ text: 'Hi <!channel> see <http://x.test|docs>', response_type: 'comment', username: 'bot-say', props: { from_webhook: 'false', override_username: 'evil', extra: 1 } }) }));
    const post = h.world.post(channel, author.id, 'ask me');
    await h.publishPost(post, channel, author);
    const command = await eventually(() => h.world.createdPosts.find((c) => c.hook_id === hook.id), 20_000, 'reply');
    await deleteHook(hook.id);
    assert.equal(command.source, 'outgoing_webhook');
    assert.equal(command.post.channel_id, channel.id);
    assert.equal(command.post.root_id, post.id);
    assert.equal(command.post.user_id, admin.id);
    assert.equal(command.post.message, 'Hi @channel see [docs](http://x.test)');
    assert.equal(command.post.props.from_webhook, 'true');
    assert.equal(command.post.props.webhook_display_name, 'Asker');
    assert.equal(command.post.props.override_username, 'bot-say');
    assert.equal(command.post.props.override_icon_url, 'http://icons/h.png');
    assert.equal(command.post.props.extra, 1);
    assert.equal(h.world.posts.get(command.post.id)?.root_id, post.id);
    h.setConfig((c) => {
      c.ServiceSettings.EnablePostUsernameOverride = false;
      c.ServiceSettings.EnablePostIconOverride = false;
    });
  });

  it('when the receiver answers attachments without text as a post, then a root slack_attachment post without overrides', async () => {
    const hook = await createHook({ trigger_words: ['card'], username: 'ignored' });
    receiver.respond(() => ({ body: JSON.stringify({ attachments: [{ text: 'a <http://y|y>', fields: [{ title: 'n', value: 1.5 }] }], type: 'custom_x' }) }));
    await h.publishPost(h.world.post(channel, author.id, 'card'), channel, author);
    const command = await eventually(() => h.world.createdPosts.find((c) => c.hook_id === hook.id), 20_000, 'reply');
    await deleteHook(hook.id);
    assert.equal(command.post.root_id, '');
    assert.equal(command.post.type, 'slack_attachment');
    assert.equal(command.post.message, '');
    assert.equal('override_username' in command.post.props, false);
    const attachments = command.post.props.attachments as { text: string; fields: { value: unknown }[] }[];
    assert.equal(attachments[0]?.text, 'a [y](http://y)');
    assert.equal(attachments[0]?.fields[0]?.value, '1.5');
  });

  it('when the receiver answers nothing, invalid JSON or JSON without text and attachments, then nothing is posted', async () => {
    const answers = ['', 'not json', JSON.stringify({ username: 'x' }), JSON.stringify({ attachments: [] })];
    const hook = await createHook({ trigger_words: ['silent'] });
    receiver.respond((_r, i) => ({ body: answers[i % answers.length] ?? '' }));
    for (let i = 0; i < answers.length; i += 1) await h.publishPost(h.world.post(channel, author.id, `silent ${i}`), channel, author);
    await received(answers.length);
    await quiet(channel);
    const deliveries = (await h.request('GET', `/api/v4/hooks/outgoing/${hook.id}/deliveries`, { as: admin })).json() as { status: string }[];
    await deleteHook(hook.id);
    assert.equal(deliveries.length, answers.length);
    assert.ok(deliveries.every((d) => d.status === 'delivered'));
    assert.equal(h.world.createdPosts.filter((c) => c.hook_id === hook.id).length, 0);
  });

  it('when the same post.created event arrives twice, then each URL is called once and one reply id exists', async () => {
    const hook = await createHook({ trigger_words: ['dup'] });
    receiver.respond(() => ({ body: JSON.stringify({ text: 'once' }) }));
    const post = h.world.post(channel, author.id, 'dup');
    await h.publishPost(post, channel, author);
    await h.publishPost(post, channel, author);
    await received(1);
    await quiet(channel);
    const calls = receiver.requests.filter((r) => r.path === '/cb');
    const replies = new Set(h.world.createdPosts.filter((c) => c.hook_id === hook.id).map((c) => c.post.id));
    await deleteHook(hook.id);
    assert.equal(calls.length, 1);
    assert.equal(replies.size, 1);
  });
});
