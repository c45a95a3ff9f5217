import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Topics, type CreatePostCommandPayload } from '@switchyard/contracts';
import { isAppError } from '@switchyard/errors';
import { newId } from '@switchyard/ids';
import { aChannel, aPost, anEvent } from './adapters/contracts';
import type { Channel, StoredPost } from './domain/entities';
import { commandsWorld, type CommandsWorld, type PublishHook } from './test-support/commands-world';
import { createPostFromCommand } from './domain/posts/create-post-from-command.usecase';
import { createPostsFromCommands, isRefused, type CommandResult } from './domain/posts/create-posts-from-commands.usecase';

function command(channelId: string, userId: string, overrides: Partial<CreatePostCommandPayload['post']> = {}): CreatePostCommandPayload {
  return {
    post: { id: newId(), channel_id: channelId, user_id: userId, message: 'from a hook #tag', type: '', props: { from_webhook: 'true', override_username: 'robot' }, root_id: '', ...overrides },
    source: 'incoming_webhook',
    hook_id: 'hook-1',
  };
}

/** What both worlds are seeded with (one world takes the commands one at a time, the other in one batch). */
interface Seed {
  readonly open: string;
  readonly other: string;
  readonly archived: string;
  readonly alice: string;
  readonly bot: string;
  /** Stored with its post.created still pending (a command handled before, not yet published). */
  readonly pending: string;
  /** A stored root post of `open`. */
  readonly root: string;
  readonly channels: readonly Channel[];
  readonly posts: readonly StoredPost[];
}

function aSeed(): Seed {
  const team = newId();
  const [open, other, archived] = [aChannel({ team_id: team }), aChannel({ team_id: team }), aChannel({ team_id: team, delete_at: 5 })] as [Channel, Channel, Channel];
  const alice = newId();
  const pending = aPost({ channel_id: open.id, user_id: alice, create_at: 10, pending_events: [{ ...anEvent(''), source: 'incoming_webhook' }] });
  pending.pending_events = [{ ...anEvent(pending.id), source: 'incoming_webhook' }];
  const root = aPost({ channel_id: open.id, user_id: alice, create_at: 11 });
  return { open: open.id, other: other.id, archived: archived.id, alice, bot: newId(), pending: pending.id, root: root.id, channels: [open, other, archived], posts: [pending, root] };
}

async function seeded(seed: Seed, beforePublish?: PublishHook): Promise<CommandsWorld> {
  const world = commandsWorld({ beforePublish });
  for (const channel of seed.channels) await world.stored.channels.insert(channel);
  for (const post of seed.posts) await world.stored.posts.insert(post);
  world.users.addUser(seed.alice, 'alice');
  world.users.addUser(seed.bot, 'robot', true);
  return world;
}

/** createPostFromCommand's answer as a CommandResult (a refusal caught as the consumer catches it). */
async function single(world: CommandsWorld, payload: CreatePostCommandPayload): Promise<CommandResult> {
  try {
    return await createPostFromCommand(world.deps, payload);
  } catch (error) {
    if (isAppError(error) && error.statusCode < 500) return { refused: error };
    throw error;
  }
}

/** What a world's results, store and bus look like (counter promises left out). */
async function observed(world: CommandsWorld, results: readonly CommandResult[], seed: Seed, ids: readonly string[]) {
  await world.settled();
  return {
    // A created post exactly; an existing one by id (what it carries depends on how far the relay got meanwhile).
    results: results.map((r) => (isRefused(r) ? { refused: r.refused.id, status: r.refused.statusCode } : { post: r.created ? r.post : r.post.id, created: r.created })),
    posts: await world.stored.posts.findByIds([...ids, seed.pending, seed.root]),
    channels: await world.stored.channels.findByIds([seed.open, seed.other, seed.archived]),
    // Publish order per channel is what consumers see; across channels it is not ordered.
    events: [seed.open, seed.other].map((key) => world.sink.of(Topics.postsEvents).filter((p) => p.key === key)),
  };
}

describe('createPostsFromCommands', () => {
  it('when a mixed batch is handled, then every result, stored post, channel counter and published event is what handling the commands one at a time gives', async () => {
    const seed = aSeed();
    const first = command(seed.open, seed.alice, { create_at: 100 });
    const commands: CreatePostCommandPayload[] = [
      first,
      command(seed.other, seed.bot, { create_at: 101 }),
      command(seed.open, seed.alice, { id: seed.pending, message: 'redelivered' }),
      command(newId(), seed.alice),
      command(seed.archived, seed.alice),
      command(seed.open, newId()),
      command(seed.open, seed.alice, { root_id: seed.root, create_at: 102 }),
      command(seed.open, seed.alice, { message: 'x'.repeat(16384) }),
      command(seed.open, seed.alice, { root_id: 'not-an-id' }),
      // The post of the first command: a reply to it, then the same command again (its copy is a duplicate).
      command(seed.open, seed.alice, { root_id: first.post.id, create_at: 103 }),
      { ...first, post: { ...first.post, message: 'changed' } },
      command(seed.other, seed.alice, { root_id: first.post.id }),
      // A command that would be refused but whose post exists: answered with the stored post.
      command(newId(), seed.alice, { id: seed.pending }),
      command(seed.open, seed.alice, { type: 'bogus_type' }),
      command(seed.open, seed.bot, { create_at: 104, priority: { priority: 'urgent' } }),
      command(seed.other, seed.alice, { create_at: 99 }),
    ];
    const ids = commands.map((c) => c.post.id);

    const oneByOne = await seeded(seed);
    const singleResults: CommandResult[] = [];
    for (const payload of commands) singleResults.push(await single(oneByOne, payload));
    const batched = await seeded(seed);
    const batchResults = await createPostsFromCommands(batched.deps, commands);

    const expected = await observed(oneByOne, singleResults, seed, ids);
    const actual = await observed(batched, batchResults, seed, ids);
    assert.deepEqual(actual, expected);
    // And the outcomes are the ones meant (not two equally wrong worlds).
    assert.deepEqual(
      actual.results.map((r) => ('refused' in r ? r.refused : r.created)),
      [
        true,
        true,
        false,
        'app.channel.get.existing.app_error',
        'api.post.create_post.can_not_post_to_deleted.error',
        'app.post.create_post.author_missing',
        true,
        'model.post.is_valid.message_length.app_error',
        'api.post.create_post.root_id.app_error',
        true,
        false,
        'api.post.create_post.channel_root_id.app_error',
        false,
        'model.post.is_valid.type.app_error',
        true,
        true,
      ],
    );
    const byId = new Map(actual.posts.map((p) => [p.id, p]));
    assert.equal(byId.get(first.post.id)?.message, 'from a hook #tag');
    assert.equal(byId.get(first.post.id)?.reply_count, 1);
    assert.equal(byId.get(seed.root)?.reply_count, 1);
    assert.equal(byId.get(seed.pending)?.pending_events.length, 0);
    const counters = new Map(actual.channels.map((c) => [c.id, [c.total_msg_count, c.total_msg_count_root, c.last_post_at, c.last_root_post_at]]));
    assert.deepEqual(counters.get(seed.open), [4, 2, 104, 104]);
    assert.deepEqual(counters.get(seed.other), [2, 2, 101, 101]);
    const createdIds = actual.events.flat().filter((e) => e.value.type === 'post.created').map((e) => e.value.id);
    assert.deepEqual(createdIds.sort(), [...[0, 1, 6, 9, 14, 15].map((at) => ids[at]), seed.pending].map((id) => `${id}:created`).sort());
  });

  it('when many valid commands of two channels come together, then one author lookup, one insert, and per channel one publish, one outbox clear and one counter write; each post is stored before its post.created is published', async () => {
    const seed = aSeed();
    const unpublishedAtPublish: string[] = [];
    const world = await seeded(seed, async (_topic, messages) => {
      for (const m of messages) {
        const value = m.value as { type: string; payload: { post: { id: string } } };
        if (value.type === 'post.created' && !(await world.stored.posts.findById(value.payload.post.id))) unpublishedAtPublish.push(value.payload.post.id);
      }
    });
    const commands = Array.from({ length: 20 }, (_, i) => command(i % 2 === 0 ? seed.open : seed.other, i % 3 === 0 ? seed.bot : seed.alice, { create_at: 1_000 + i }));
    const results = await createPostsFromCommands(world.deps, commands);
    await world.settled();
    assert.deepEqual(results.map((r) => !isRefused(r) && r.created), commands.map(() => true));
    assert.deepEqual([...world.userCalls], [['usersByIds', 1]], 'one usersByIds for the batch');
    assert.equal(world.postCalls.get('insertMany'), 1);
    assert.equal(world.postCalls.get('insert'), undefined);
    assert.equal(world.postCalls.get('findByIds'), undefined, 'no root and no duplicate to read back');
    assert.equal(world.sinkCalls.get('publish'), 2, 'one publish per channel');
    assert.equal(world.sink.of(Topics.postsEvents, 'post.created').length, 20);
    assert.equal(world.postCalls.get('clearEvents'), 2, 'one outbox clear per channel');
    assert.equal(world.channelCalls.get('recordPosts'), 2, 'one counter write per channel');
    assert.deepEqual(unpublishedAtPublish, []);
    const open = world.sink.of(Topics.postsEvents, 'post.created').filter((e) => e.key === seed.open).map((e) => (e.value.payload.post as { id: string }).id);
    assert.deepEqual(open, commands.filter((c) => c.post.channel_id === seed.open).map((c) => c.post.id), 'a channel’s posts published in command order');
    assert.equal((await world.stored.channels.findById(seed.open))?.total_msg_count, 10);
    assert.equal((await world.stored.posts.findById(commands[0]?.post.id ?? ''))?.props.from_bot, 'true');
    assert.equal((await world.stored.posts.findById(commands[0]?.post.id ?? ''))?.incoming_hook_id, 'hook-1');
  });

  it('when the users lookup or the insert fails, then the whole call rejects (the consumer then takes the commands one at a time)', async () => {
    const seed = aSeed();
    const world = await seeded(seed);
    const commands = [command(seed.open, seed.alice), command(seed.other, seed.alice)];
    const down = new Error('users-bots unavailable');
    const users = Object.assign(Object.create(world.users) as typeof world.users, { usersByIds: () => Promise.reject(down) });
    await assert.rejects(createPostsFromCommands({ ...world.deps, users }, commands), down);
    const storeDown = new Error('store unavailable');
    const posts = Object.assign(Object.create(world.deps.posts) as typeof world.deps.posts, { insertMany: () => Promise.reject(storeDown) });
    await assert.rejects(createPostsFromCommands({ ...world.deps, posts }, commands), storeDown);
    await world.settled();
    assert.deepEqual(await world.stored.posts.findByIds(commands.map((c) => c.post.id)), []);
    assert.equal(world.sink.published.length, 0);
  });
});
