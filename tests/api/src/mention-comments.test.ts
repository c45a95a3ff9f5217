import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { patchConfig } from './support/fixtures';
import { newChannel, postIn, type Actor } from './support/posts-fixtures';
import { wsWorld, type WsWorld } from './support/ws-world';
import { mentionActors } from './support/mention-actors';

/**
 * The `comments` notify prop (the reference's comment mentions): while a user does not see collapsed threads, a reply mentions
 * them when they wrote its thread's root (`root` or `any`) or one of its replies (`any`): counted and in posted.mentions.
 */
describe('comments notify prop: replies mention the thread\'s writers (mention counts and posted.mentions)', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let alice: Actor;

  const { memberWith, mentionCount, mentionsOn } = mentionActors(() => world);

  before(async () => {
    world = await wsWorld({ alsoRestore: ['CollapsedThreads'] });
    ({ alice } = world);
  });
  after(async () => {
    await world?.stop();
  });

  it('when CollapsedThreads is disabled, then a reply mentions the root\'s writer (root) and the repliers (any); never: nobody', async () => {
    await patchConfig(world.admin.client, { ServiceSettings: { CollapsedThreads: 'disabled' } });
    const starter = await memberWith('starter', { comments: 'root' });
    const replier = await memberWith('replier', { comments: 'any' });
    const silent = await memberWith('silent', { comments: 'never' });
    const channel = await newChannel(alice, world.team);
    for (const member of [starter, replier, silent]) await alice.client.addToChannel(member.id, channel.id);
    const root = await postIn(starter, channel.id, 'root of the thread');
    await postIn(replier, channel.id, 'first reply', { root_id: root.id });
    await postIn(silent, channel.id, 'second reply', { root_id: root.id });
    const counts = async () => ({ starter: await mentionCount(starter, channel.id), replier: await mentionCount(replier, channel.id), silent: await mentionCount(silent, channel.id) });
    const before = await counts();
    const starterSocket = await world.open(starter.token);
    const replierSocket = await world.open(replier.token);
    const silentSocket = await world.open(silent.token);
    const reply = await postIn(alice, channel.id, 'thanks all', { root_id: root.id });
    assert.equal(await mentionsOn(starterSocket, reply.id), JSON.stringify([starter.id]));
    assert.equal(await mentionsOn(replierSocket, reply.id), JSON.stringify([replier.id]));
    assert.equal(await mentionsOn(silentSocket, reply.id), undefined);
    assert.deepEqual(await counts(), { starter: before.starter + 1, replier: before.replier + 1, silent: before.silent });
    const other = await postIn(alice, channel.id, 'a new root');
    assert.equal(await mentionsOn(starterSocket, other.id), undefined, 'a root mentions no writers');
  });

  it('when users see collapsed threads (always_on), then the comments prop mentions nobody', async () => {
    await patchConfig(world.admin.client, { ServiceSettings: { CollapsedThreads: 'always_on' } });
    const starter = await memberWith('starter', { comments: 'any' });
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(starter.id, channel.id);
    const root = await postIn(starter, channel.id, 'root');
    const socket = await world.open(starter.token);
    const reply = await postIn(alice, channel.id, 'reply', { root_id: root.id });
    assert.equal(await mentionsOn(socket, reply.id), undefined);
    assert.equal(await mentionCount(starter, channel.id), 0);
  });
});
