import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertJson, raw } from './support/http';
import { createIncomingHook, sendToHook } from './support/incoming-hooks';
import { newChannel, postIn, type Actor } from './support/posts-fixtures';
import { parsed, type TestSocket } from './support/ws';
import { wsWorld, type WsWorld } from './support/ws-world';

/**
 * Where mentions are read (the reference's getExplicitMentions): Markdown text only, never code spans or code blocks;
 * and whose mention a post may be: a webhook's post may mention its own creator.
 */
describe('mentions in Markdown text and webhook posts (mention counts and posted.mentions)', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let alice: Actor;
  let bob: Actor;

  const mentionCount = async (actor: Pick<Actor, 'id' | 'token'>, channelId: string): Promise<number> => {
    const response = await raw(world.target.url, 'GET', `/api/v4/users/${actor.id}/channels/${channelId}/unread`, { token: actor.token });
    assertJson(response, 200);
    return response.json.mention_count as number;
  };
  /** The `mentions` of the first `posted` on the socket whose post matches (undefined: none). */
  const mentionsOn = async (socket: TestSocket, matches: (post: { id: string; message: string }) => boolean): Promise<string | undefined> => {
    const event = await socket.event('posted', (f) => matches(parsed(f, 'post')));
    return event.data?.mentions as string | undefined;
  };

  before(async () => {
    world = await wsWorld();
    ({ alice, bob } = world);
  });
  after(async () => {
    await world?.stop();
  });

  it('when @names and @channel sit in code spans, fenced or indented code, then nobody is mentioned; the same name in text is', async () => {
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(bob.id, channel.id);
    const bobSocket = await world.open(bob.token);
    const coded = await postIn(alice, channel.id, `run \`@${bob.username}\` here\n\n\`\`\`\n@channel @${bob.username}\n\`\`\`\n\n    @all`);
    assert.equal(await mentionsOn(bobSocket, (p) => p.id === coded.id), undefined);
    assert.equal(await mentionCount(bob, channel.id), 0);
    const named = await postIn(alice, channel.id, `\`code\` then @${bob.username}`);
    assert.equal(await mentionsOn(bobSocket, (p) => p.id === named.id), JSON.stringify([bob.id]));
    assert.equal(await mentionCount(bob, channel.id), 1);
  });

  it('when a webhook\'s post names the hook\'s creator, then it counts for them and their posted carries mentions; their own post naming themselves does not', async () => {
    const admin = { id: world.admin.user.id, token: world.admin.token, username: world.admin.user.username };
    const channel = await newChannel(alice, world.team);
    await alice.client.addToChannel(admin.id, channel.id);
    const hook = await createIncomingHook(world.target.url, admin.token, { channel_id: channel.id, display_name: 'mention hook' });
    const adminSocket = await world.open(admin.token);
    const own = await postIn({ client: world.admin.client, ...admin }, channel.id, `note to @${admin.username}`);
    assert.equal(await mentionsOn(adminSocket, (p) => p.id === own.id), undefined);
    const text = `nightly failed, @${admin.username} ${Date.now()}`;
    assert.equal((await sendToHook(world.target.url, hook.id, { text })).status, 200);
    assert.equal(await mentionsOn(adminSocket, (p) => p.message === text), JSON.stringify([admin.id]));
    assert.equal(await mentionCount(admin, channel.id), 1);
  });
});
