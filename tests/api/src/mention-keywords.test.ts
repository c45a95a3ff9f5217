import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { patchConfig } from './support/fixtures';
import { assertJson, raw } from './support/http';
import { newChannel, postIn, type Actor } from './support/posts-fixtures';
import { wsWorld, type WsWorld } from './support/ws-world';
import { mentionActors } from './support/mention-actors';

/**
 * Who a post mentions beyond `@username` (the reference's MentionKeywords.AddUser): the user's mention keys and first name,
 * the user's `channel` notify prop, and the membership's `ignore_channel_mentions` (`default` in a muted channel ignores);
 * counted on the mention counts and sent as the `posted` event's `mentions`.
 */
describe('mention keys, first names and channel-wide settings (mention counts and posted.mentions)', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let alice: Actor;

  const { memberWith, mentionCount, mentionsOn } = mentionActors(() => world);

  before(async () => {
    world = await wsWorld({ alsoRestore: ['PostPriority'] });
    ({ alice } = world);
  });
  after(async () => {
    await world?.stop();
  });

  it('when a post contains a user\'s mention key (any case) or first name (as written, first_name on), then it counts for them and their posted carries mentions', async () => {
    const kim = await memberWith('kim', { mention_keys: 'Deploy, @oncall', first_name: 'true' }, 'Kimberly');
    const lee = await memberWith('lee', { mention_keys: '', first_name: 'false' }, 'Lee');
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(kim.id, channel.id);
    await alice.client.addToChannel(lee.id, channel.id);
    const kimSocket = await world.open(kim.token);
    const leeSocket = await world.open(lee.token);

    const keyed = await postIn(alice, channel.id, 'the DEPLOY failed, paging @OnCall.');
    assert.equal(await mentionsOn(kimSocket, keyed.id), JSON.stringify([kim.id]));
    assert.equal(await mentionsOn(leeSocket, keyed.id), undefined);
    assert.equal(await mentionCount(kim, channel.id), 1, 'once per post, however many keys');
    await postIn(alice, channel.id, 'ask Kimberly');
    await postIn(alice, channel.id, 'ask kimberly, or redeploy it');
    await postIn(alice, channel.id, 'ask Lee');
    assert.equal(await mentionCount(kim, channel.id), 2, 'the first name as written; a key inside a word is no mention');
    assert.equal(await mentionCount(lee, channel.id), 0, 'first-name mentions off');
    assert.equal(await mentionCount(alice, channel.id), 0);
  });

  it('when a user turned channel-wide mentions off, then @channel, @all and @here do not count for them, naming them still does', async () => {
    const quiet = await memberWith('quiet', { channel: 'false' });
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(quiet.id, channel.id);
    await alice.client.addToChannel(world.bob.id, channel.id);
    const quietSocket = await world.open(quiet.token);
    const all = await postIn(alice, channel.id, '@channel and @all, heads up');
    assert.equal(await mentionsOn(quietSocket, all.id), undefined);
    assert.equal(await mentionCount(quiet, channel.id), 0);
    assert.equal(await mentionCount(world.bob, channel.id), 1);
    const named = await postIn(alice, channel.id, `@channel and @${quiet.username}`);
    assert.equal(await mentionsOn(quietSocket, named.id), JSON.stringify([quiet.id]));
    assert.equal(await mentionCount(quiet, channel.id), 1);
  });

  it('when a member muted the channel with ignore_channel_mentions default, then @channel does not count for them; off makes it count again', async () => {
    const channel = await newChannel(alice, world.team);
    const { bob } = world;
    await alice.client.addToChannel(bob.id, channel.id);
    const bobSocket = await world.open(bob.token);
    const setProps = async (props: Record<string, string>) => assertJson(await raw(world.target.url, 'PUT', `/api/v4/channels/${channel.id}/members/${bob.id}/notify_props`, { token: bob.token, body: props }), 200);
    await setProps({ mark_unread: 'mention' });
    const muted = await postIn(alice, channel.id, '@channel muted');
    assert.equal(await mentionsOn(bobSocket, muted.id), undefined);
    assert.equal(await mentionCount(bob, channel.id), 0);
    await setProps({ ignore_channel_mentions: 'off' });
    const heard = await postIn(alice, channel.id, '@channel heard');
    assert.equal(await mentionsOn(bobSocket, heard.id), JSON.stringify([bob.id]));
    assert.equal(await mentionCount(bob, channel.id), 1);
  });

  it('when a reply contains a member\'s mention key, then that member follows the thread with an unread mention (the reference\'s thread mentions)', async () => {
    const ops = await memberWith('ops', { mention_keys: 'rollback' });
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(ops.id, channel.id);
    const root = await postIn(alice, channel.id, 'release 1.2 is out');
    await postIn(alice, channel.id, 'we may need a Rollback', { root_id: root.id });
    await postIn(alice, channel.id, 'see `rollback` in the runbook', { root_id: root.id });
    const thread = await raw(world.target.url, 'GET', `/api/v4/users/me/teams/${world.team.id}/threads/${root.id}`, { token: ops.token });
    assertJson(thread, 200);
    assert.equal(thread.json.unread_mentions, 1, 'a key in a code span is no mention');
    const reread = await raw(world.target.url, 'PUT', `/api/v4/users/me/teams/${world.team.id}/threads/${root.id}/read/${root.create_at}`, { token: ops.token });
    assertJson(reread, 200);
    assert.equal(reread.json.unread_mentions, 1, 'recounted from the replies with the mention key, as countThreadMentions');
  });

  it('when an urgent root\'s thread has unread mentions, then the thread is_urgent and they add up in total_unread_urgent_mentions', async () => {
    const { bob } = world;
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(bob.id, channel.id);
    const urgent = await postIn(bob, channel.id, 'urgent: prod down', { metadata: { priority: { priority: 'urgent' } } } as never);
    const plain = await postIn(bob, channel.id, 'plain root');
    await postIn(alice, channel.id, `@${bob.username} looking`, { root_id: urgent.id });
    await postIn(alice, channel.id, `@${bob.username} and again`, { root_id: urgent.id });
    await postIn(alice, channel.id, `@${bob.username} here too`, { root_id: plain.id });
    const list = await raw(world.target.url, 'GET', `/api/v4/users/me/teams/${world.team.id}/threads`, { token: bob.token });
    assertJson(list, 200);
    const threads = list.json.threads as { id: string; is_urgent: boolean; unread_mentions: number }[];
    assert.deepEqual(threads.filter((t) => t.id === urgent.id || t.id === plain.id).map((t) => [t.id === urgent.id, t.is_urgent, t.unread_mentions]).sort(), [[false, false, 1], [true, true, 2]]);
    assert.equal(list.json.total_unread_urgent_mentions, 2);
    await patchConfig(world.admin.client, { ServiceSettings: { PostPriority: false } });
    const off = await raw(world.target.url, 'GET', `/api/v4/users/me/teams/${world.team.id}/threads`, { token: bob.token });
    assertJson(off, 200);
    assert.equal((off.json.threads as { id: string; is_urgent: boolean }[]).find((t) => t.id === urgent.id)?.is_urgent, false, 'post priority off: no thread is urgent');
    assert.equal(off.json.total_unread_urgent_mentions, 0);
    const one = await raw(world.target.url, 'GET', `/api/v4/users/me/teams/${world.team.id}/threads/${urgent.id}`, { token: bob.token });
    assertJson(one, 200);
    assert.equal(one.json.is_urgent, false);
    await patchConfig(world.admin.client, { ServiceSettings: { PostPriority: true } });
  });

  it('when alice writes in a group channel, then every other member is mentioned (counted and in posted.mentions), whatever the text', async () => {
    const { bob } = world;
    const carol = await memberWith('carol', {});
    const group = await alice.client.createGroupChannel([alice.id, bob.id, carol.id]);
    const [aliceSocket, carolSocket] = [await world.open(alice.token), await world.open(carol.token)];
    const before = await mentionCount(bob, group.id);
    const post = await postIn(alice, group.id, 'lunch?');
    assert.equal(await mentionsOn(carolSocket, post.id), JSON.stringify([carol.id]));
    assert.equal(await mentionsOn(aliceSocket, post.id), undefined);
    assert.equal(await mentionCount(bob, group.id), before + 1);
    assert.equal(await mentionCount(carol, group.id), 1);
    assert.equal(await mentionCount(alice, group.id), 0);
  });

  it('when alice writes to bob directly, then bob\'s posted carries mentions, alice\'s own does not', async () => {
    const { bob } = world;
    const dm = await alice.client.createDirectChannel([alice.id, bob.id]);
    const [aliceSocket, bobSocket] = [await world.open(alice.token), await world.open(bob.token)];
    const post = await postIn(alice, dm.id, 'no names at all');
    assert.equal(await mentionsOn(bobSocket, post.id), JSON.stringify([bob.id]));
    assert.equal(await mentionsOn(aliceSocket, post.id), undefined);
  });
});
