import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { envelope, Topics, type CreatePostCommandPayload } from '@switchyard/contracts';
import type { BusMessage, EventBus, SubscribeOptions } from '@switchyard/event-bus';
import { newId } from '@switchyard/ids';
import { createSilentLogger } from '@switchyard/logger';
import { aChannel, aFileInfo } from '../../adapters/contracts';
import type { Channel } from '../../domain/entities';
import { memoryRepositories } from '../../adapters/memory';
import { commandsWorld, counting, type CommandsWorld } from '../../test-support/commands-world';
import { postsHarness, type PostsHarness } from '../../test-support/http-harness';
import { until } from '../../test-support/until';
import { postCreateBatchHandler, postCreateHandler, subscribePostCommands } from './post-create.consumer';

async function send(h: PostsHarness, payload: unknown, key = 'k'): Promise<void> {
  await h.bus.publish(Topics.postsCommands, [{ key, value: envelope('post.create', payload) }]);
}

function command(channelId: string, userId: string, overrides: Partial<CreatePostCommandPayload['post']> = {}): CreatePostCommandPayload {
  return {
    post: { id: newId(), channel_id: channelId, user_id: userId, message: 'from a hook', type: '', props: { from_webhook: 'true', override_username: 'robot' }, root_id: '', ...overrides },
    source: 'incoming_webhook',
    hook_id: newId(),
  };
}

describe('posts.commands consumer', () => {
  it('when a post.create arrives twice with the same post id, then one post exists and one post.created is published', async () => {
    const h = await postsHarness();
    try {
      const team = h.team();
      const alice = h.user({ teamId: team });
      const channel = await h.channel(alice, team);
      const cmd = command(channel.id, alice.id, {
        props: { from_webhook: 'true', override_username: 'robot', attachments: [{ color: 'good', actions: [{ name: 'Go', integration: { url: 'http://x', context: { k: 1 } } }], fields: [{ title: 't', value: 2 }] }] },
      });
      await send(h, cmd, channel.id);
      await send(h, { ...cmd, post: { ...cmd.post, message: 'changed' } }, channel.id);
      // A sentinel on the same key (one partition, handled in order): once it exists, both copies were handled.
      const sentinel = command(channel.id, alice.id, { message: 'sentinel' });
      await send(h, sentinel, channel.id);
      await until(async () => (await h.repositories.posts.findById(sentinel.post.id)) !== undefined);
      await h.app.outbox.idle();
      const stored = await h.repositories.posts.findById(cmd.post.id);
      assert.equal(stored?.message, 'from a hook');
      assert.equal(stored?.props.from_webhook, 'true');
      assert.equal(stored?.props.override_username, 'robot');
      const attachment = (stored?.props.attachments as Record<string, unknown>[])[0];
      assert.equal(attachment?.color, '#2eb67d');
      assert.deepEqual(attachment?.fields, [{ title: 't', value: '2', short: false }]);
      const action = (attachment?.actions as Record<string, unknown>[])[0];
      assert.match(String(action?.id), /^[a-z0-9]{26}$/);
      assert.deepEqual(action?.integration, { url: 'http://x', context: { k: 1 } });
      const created = h.sink.of(Topics.postsEvents, 'post.created').filter((e) => (e.value.payload.post as { id: string }).id === cmd.post.id);
      assert.equal(created.length, 1);
      assert.equal(created[0]?.value.id, `${cmd.post.id}:created`);
      assert.equal(created[0]?.value.payload.source, 'incoming_webhook');
      assert.equal(created[0]?.value.payload.from_webhook, true);
    } finally {
      await h.stop();
    }
  });

  it('when the author is a bot, then from_bot is set; an unknown or archived channel is refused with post.refused, an invalid command is skipped, and later commands still work', async () => {
    const h = await postsHarness();
    try {
      const team = h.team();
      const alice = h.user({ teamId: team });
      const bot = h.user({ isBot: true, teamId: team });
      const channel = await h.channel(alice, team);
      const archived = await h.channel(alice, team);
      assert.equal((await h.request('DELETE', `/api/v4/channels/${archived.id}`, { as: alice })).statusCode, 200);
      const unknown = command(newId(), alice.id);
      const toArchived = command(archived.id, alice.id);
      await send(h, unknown);
      await send(h, toArchived);
      await send(h, { post: { id: 'short' } });
      await h.bus.publish(Topics.postsCommands, [{ key: 'k', value: { not: 'an envelope' } }]);
      await send(h, command(channel.id, alice.id, { message: 'x'.repeat(16384) }));
      const fromBot = command(channel.id, bot.id);
      await send(h, fromBot);
      await until(async () => (await h.repositories.posts.findById(fromBot.post.id)) !== undefined);
      assert.equal((await h.repositories.posts.findById(fromBot.post.id))?.props.from_bot, 'true');
      assert.equal(await h.repositories.posts.findById(unknown.post.id), undefined);
      assert.equal(await h.repositories.posts.findById(toArchived.post.id), undefined);
      const refused = h.sink.of(Topics.postsEvents, 'post.refused').map((e) => e.value.payload as { post_id: string; error: { id: string; status_code: number } });
      const refusal = (id: string) => refused.find((r) => r.post_id === id)?.error;
      assert.equal(refusal(unknown.post.id)?.status_code, 404);
      assert.equal(refusal(toArchived.post.id)?.id, 'api.post.create_post.can_not_post_to_deleted.error');
      assert.equal(refused.filter((r) => r.post_id === fromBot.post.id).length, 0);
    } finally {
      await h.stop();
    }
  });
});

describe('posts.commands with file_ids (an incoming hook\'s files)', () => {
  it('when a command carries its author\'s uploads, then the post has them with file.attached events; a refused command\'s files are discarded; others\' files are never attached', async () => {
    const h = await postsHarness();
    try {
      const team = h.team();
      const alice = h.user({ teamId: team });
      const bob = h.user({ teamId: team });
      const channel = await h.channel(alice, team);
      const archived = await h.channel(alice, team);
      assert.equal((await h.request('DELETE', `/api/v4/channels/${archived.id}`, { as: alice })).statusCode, 200);
      const mine = aFileInfo({ user_id: alice.id, channel_id: channel.id });
      const bobs = aFileInfo({ user_id: bob.id, channel_id: channel.id });
      const doomed = aFileInfo({ user_id: alice.id, channel_id: archived.id });
      for (const info of [mine, bobs, doomed]) await h.repositories.files.insert(info);
      const ok = command(channel.id, alice.id, { file_ids: [mine.id, bobs.id] });
      const refused = command(archived.id, alice.id, { file_ids: [doomed.id] });
      await send(h, ok, channel.id);
      await send(h, refused, archived.id);
      await until(async () => (await h.repositories.posts.findById(ok.post.id)) !== undefined);
      await until(async () => h.sink.of(Topics.postsEvents, 'post.refused').some((e) => (e.value.payload as { post_id: string }).post_id === refused.post.id));
      await h.app.outbox.idle();
      const post = await h.repositories.posts.findById(ok.post.id);
      assert.deepEqual(post?.file_ids, [mine.id]);
      assert.deepEqual((post?.metadata?.files as { id: string }[]).map((f) => f.id), [mine.id]);
      assert.equal((await h.repositories.files.findById(bobs.id))?.post_id, '');
      const attached = h.sink.of(Topics.postsEvents, 'file.attached').map((e) => e.value.payload as { file_info: { id: string; post_id: string } });
      assert.deepEqual(attached.map((p) => [p.file_info.id, p.file_info.post_id]), [[mine.id, ok.post.id]]);
      assert.ok(((await h.repositories.files.findById(doomed.id))?.delete_at ?? 0) > 0, 'the refused post\'s file is discarded');
    } finally {
      await h.stop();
    }
  });
});

describe('posts.commands on the in-process bus', () => {
  it('when many commands of a channel are queued together, then they are stored through a few batch inserts, none alone, and each post.created is published once', async () => {
    const stored = memoryRepositories();
    const posts = counting(stored.posts);
    const h = await postsHarness({ repositories: { ...stored, posts: posts.proxy } });
    try {
      const team = h.team();
      const alice = h.user({ teamId: team });
      const channel = await h.channel(alice, team);
      const commands = Array.from({ length: 30 }, (_, i) => command(channel.id, alice.id, { message: `hook ${i}` }));
      await h.bus.publish(Topics.postsCommands, commands.map((c) => ({ key: channel.id, value: envelope('post.create', c) })));
      await until(async () => (await h.repositories.posts.findByIds(commands.map((c) => c.post.id))).length === commands.length);
      await h.app.outbox.idle();
      assert.equal(posts.calls.get('insert'), undefined);
      assert.ok((posts.calls.get('insertMany') ?? 0) <= 3, `insertMany calls: ${posts.calls.get('insertMany')}`);
      const created = h.sink.of(Topics.postsEvents, 'post.created').map((e) => (e.value.payload.post as { id: string }).id);
      assert.deepEqual(created, commands.map((c) => c.post.id));
    } finally {
      await h.stop();
    }
  });
});

describe('posts.commands batch handler', () => {
  const logger = createSilentLogger();
  const message = (value: unknown, offset: number): BusMessage => ({ topic: Topics.postsCommands, partition: 0, offset: String(offset), key: 'k', value, headers: {}, attempt: 1 });

  /** Two worlds seeded alike: channels (one archived) and two users. */
  function seeded(channels: readonly Channel[], users: readonly string[], refusalPublishes: number[] = []): Promise<CommandsWorld> {
    const world = commandsWorld({
      beforePublish: async (_topic, messages) => {
        if (messages.some((m) => (m.value as { type: string }).type === 'post.refused')) refusalPublishes.push(messages.length);
      },
    });
    users.forEach((id, i) => world.users.addUser(id, `user${i}`, i === 1));
    return Promise.all(channels.map((c) => world.stored.channels.insert(c))).then(() => world);
  }

  it('when a partition’s messages come as one batch, then the store and posts.events end as with the single handler, and the refusals go out in one publish', async () => {
    const channels = [aChannel(), aChannel(), aChannel({ delete_at: 7 })] as [Channel, Channel, Channel];
    const [alice, bot] = [newId(), newId()];
    const valid = command(channels[0].id, alice, { create_at: 5 });
    const values: unknown[] = [
      envelope('post.create', valid),
      { not: 'an envelope' },
      envelope('post.delete', valid),
      envelope('post.create', { post: { id: 'short' } }),
      envelope('post.create', command(channels[1].id, bot, { create_at: 6 })),
      envelope('post.create', command(newId(), alice)),
      envelope('post.create', command(channels[2].id, alice)),
      envelope('post.create', { ...valid, post: { ...valid.post, message: 'again' } }),
      envelope('post.create', command(channels[0].id, alice, { root_id: valid.post.id, create_at: 7 })),
      envelope('post.create', command(channels[0].id, newId())),
      // Only the contract's joi schemas take this one (they convert the version's text); the plain check does not.
      { ...envelope('post.create', command(channels[1].id, alice, { create_at: 8 })), version: '1' },
    ];
    const messages = values.map(message);
    const one = await seeded(channels, [alice, bot]);
    const handle = postCreateHandler(one.deps, logger);
    for (const m of messages) await handle(m);
    const refusalPublishes: number[] = [];
    const batch = await seeded(channels, [alice, bot], refusalPublishes);
    await postCreateBatchHandler(batch.deps, logger)(messages);
    for (const world of [one, batch]) await world.settled();

    const ids = [...new Set(values.flatMap((v) => (v as { payload?: { post?: { id?: string } } }).payload?.post?.id ?? []))];
    const view = async (world: CommandsWorld) => ({
      posts: await world.stored.posts.findByIds(ids),
      channels: await world.stored.channels.findByIds(channels.map((c) => c.id)),
      refused: world.sink.of(Topics.postsEvents, 'post.refused'),
      created: channels.map((c) => world.sink.of(Topics.postsEvents, 'post.created').filter((e) => e.key === c.id)),
    });
    const expected = await view(one);
    const actual = await view(batch);
    assert.deepEqual(actual, expected);
    assert.equal(actual.posts.length, 4, 'the joi-only command is stored too');
    assert.deepEqual(
      actual.refused.map((r) => (r.value.payload.error as { id: string }).id),
      ['app.channel.get.existing.app_error', 'api.post.create_post.can_not_post_to_deleted.error', 'app.post.create_post.author_missing'],
    );
    assert.deepEqual(refusalPublishes, [3], 'the refusals in one publish');
    // Segments: the first two posts; the first one's copy (it must see it stored); the reply to it (likewise).
    assert.equal(batch.postCalls.get('insertMany'), 3);
    assert.equal(batch.postCalls.get('insert'), undefined);
  });

  it('when the batch’s messages come from different traces, then each new post’s post.created carries its own message’s trace context', async () => {
    const channels = [aChannel(), aChannel()] as [Channel, Channel];
    const alice = newId();
    const world = await seeded(channels, [alice]);
    const traced = (cmd: CreatePostCommandPayload, offset: number, headers: Record<string, string>): BusMessage => ({ ...message(envelope('post.create', cmd), offset), headers });
    const first = command(channels[0].id, alice);
    const second = command(channels[0].id, alice);
    const third = command(channels[1].id, alice);
    const untraced = command(channels[1].id, alice);
    const parent = (trace: string) => `00-${trace}-00f067aa0ba902b7-01`;
    const [a, b, c] = ['4bf92f3577b34da6a3ce929d0e0e4736', '0af7651916cd43dd8448eb211c80319c', '5b8aa5a2d2c872e8321cf37308d69df2'];
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    try {
      await postCreateBatchHandler(world.deps, logger)([
        traced(first, 0, { traceparent: parent(a), 'x-other': 'not trace context' }),
        traced(second, 1, { traceparent: parent(b), tracestate: 'vendor=1' }),
        traced(third, 2, { traceparent: parent(c) }),
        traced(untraced, 3, {}),
      ]);
      await world.settled();
    } finally {
      propagation.disable();
    }
    const headersOf = (id: string) => world.sink.of(Topics.postsEvents, 'post.created').find((e) => (e.value.payload.post as { id: string }).id === id)?.headers;
    assert.deepEqual(headersOf(first.post.id), { traceparent: parent(a) });
    assert.deepEqual(headersOf(second.post.id), { traceparent: parent(b), tracestate: 'vendor=1' });
    assert.deepEqual(headersOf(third.post.id), { traceparent: parent(c) });
    assert.equal(headersOf(untraced.post.id), undefined, 'no trace context: published in the active one');
    assert.equal(world.postCalls.get('insertMany'), 1, 'one batch');
  });

  it('when posts.commands is subscribed, then the bus gets the batch handler beside the single one', async () => {
    const channel = aChannel();
    const alice = newId();
    const world = await seeded([channel], [alice]);
    const subscribed: SubscribeOptions[] = [];
    const bus: EventBus = {
      subscribe: async (options) => {
        subscribed.push(options);
        return { stop: async () => undefined };
      },
      publish: async () => undefined,
      health: async () => true,
      close: async () => undefined,
    };
    await subscribePostCommands(bus, world.deps, logger);
    assert.deepEqual(subscribed.map((s) => s.topics), [[Topics.postsCommands]]);
    const cmd = command(channel.id, alice);
    await subscribed[0]?.batchHandler?.([message(envelope('post.create', cmd), 0)]);
    assert.equal(world.postCalls.get('insertMany'), 1);
    assert.equal((await world.stored.posts.findById(cmd.post.id))?.message, cmd.post.message);
  });

  it('when users-bots, the store or the bus fails, then the batch handler rejects (the bus then takes the messages one at a time)', async () => {
    const channel = aChannel();
    const alice = newId();
    const world = await seeded([channel], [alice]);
    const handle = postCreateBatchHandler(world.deps, logger);
    const messages = [message(envelope('post.create', command(channel.id, alice)), 0), message(envelope('post.create', command(newId(), alice)), 1)];
    const usersDown = new Error('users-bots unavailable');
    const users = Object.assign(Object.create(world.users) as typeof world.users, { usersByIds: () => Promise.reject(usersDown) });
    await assert.rejects(postCreateBatchHandler({ ...world.deps, users }, logger)(messages), usersDown);
    world.sink.failNext(1);
    await assert.rejects(handle(messages), /broker unavailable/, 'the refusal could not be announced');
    await handle(messages);
    await world.settled();
    assert.equal(world.sink.of(Topics.postsEvents, 'post.refused').length, 1);
    assert.equal(world.sink.of(Topics.postsEvents, 'post.created').length, 1);
    await handle([]);
    await handle([message({ not: 'an envelope' }, 2)]);
    assert.equal(world.sinkCalls.get('publish'), 3, 'nothing to publish for a batch without commands');
  });
});
