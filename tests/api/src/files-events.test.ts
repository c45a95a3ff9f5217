import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { patchConfig } from './support/fixtures';
import { startOutgoingReceiver, type OutgoingReceiver } from './support/outgoing-receiver';
import { PICTURES } from './support/pictures';
import { newChannel, postIn, type Actor } from './support/posts-fixtures';
import { parsed } from './support/ws';
import { wsWorld, type WsWorld } from './support/ws-world';

describe('files where a post goes: WebSocket events and outgoing webhook payloads', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let receiver: OutgoingReceiver;

  before(async () => {
    world = await wsWorld({ alsoRestore: ['AllowedUntrustedInternalConnections'] });
    receiver = await startOutgoingReceiver();
    await patchConfig(world.admin.client, { ServiceSettings: { AllowedUntrustedInternalConnections: '127.0.0.1', EnableOutgoingWebhooks: true } });
  });
  after(async () => {
    await receiver?.close();
    await world?.stop();
  });

  const upload = async (actor: Actor, channelId: string, name: string, data: Buffer | string): Promise<string> => {
    const form = new FormData();
    form.append('channel_id', channelId);
    form.append('files', new Blob([typeof data === 'string' ? data : new Uint8Array(data)]), name);
    const response = await fetch(`${world.target.url}/api/v4/files`, { method: 'POST', headers: { Authorization: `Bearer ${actor.token}` }, body: form });
    assert.equal(response.status, 201);
    return ((await response.json()) as { file_infos: { id: string }[] }).file_infos[0]?.id ?? '';
  };

  it('when a post with files is created and edited, then posted and post_edited carry metadata.files, and posted says image and otherFile', async () => {
    const { alice, bob, team } = world;
    const channel = await newChannel(alice, team);
    await alice.client.addToChannel(bob.id, channel.id);
    const bobWs = await world.open(bob.token);
    const png = await upload(alice, channel.id, 'shot.png', PICTURES.png);
    const txt = await upload(alice, channel.id, 'log.txt', 'log lines');
    const post = await postIn(alice, channel.id, 'see attached', { file_ids: [png] });
    const posted = await bobWs.event('posted', (f) => parsed(f, 'post').id === post.id);
    const wirePost = parsed(posted, 'post') as { file_ids: string[]; metadata: { files: { id: string }[] } };
    assert.deepEqual(wirePost.file_ids, [png]);
    assert.deepEqual(wirePost.metadata.files.map((f) => f.id), [png]);
    assert.equal(posted.data?.image, 'true');
    assert.equal(posted.data?.otherFile, 'true');
    await alice.client.patchPost({ id: post.id, file_ids: [png, txt] });
    const edited = await bobWs.event('post_edited', (f) => parsed(f, 'post').id === post.id);
    assert.deepEqual((parsed(edited, 'post') as { metadata: { files: { id: string }[] } }).metadata.files.map((f) => f.id), [png, txt]);
  });

  it('when a post with files fires an outgoing webhook, then file_ids is the comma-joined list in JSON and in the form', async () => {
    const { admin, alice, team } = world;
    const channel = await newChannel(alice, team);
    await admin.client.addToChannel(admin.user.id, channel.id).catch(() => undefined);
    const json = await admin.client.createOutgoingWebhook({ team_id: team.id, channel_id: channel.id, trigger_words: ['filesjson'], callback_urls: [`${receiver.url}/files-json`], content_type: 'application/json', display_name: 'fj' } as never);
    const formHook = await admin.client.createOutgoingWebhook({ team_id: team.id, channel_id: channel.id, trigger_words: ['filesform'], callback_urls: [`${receiver.url}/files-form`], display_name: 'ff' } as never);
    assert.ok(json.id && formHook.id);
    const a = await upload(alice, channel.id, 'a.txt', 'a');
    const b = await upload(alice, channel.id, 'b.txt', 'b');
    await postIn(alice, channel.id, 'filesjson here', { file_ids: [a, b] });
    const sentJson = await receiver.waitFor((r) => r.path === '/files-json');
    assert.equal((JSON.parse(sentJson.body) as { file_ids: string }).file_ids, `${a},${b}`);
    const c = await upload(alice, channel.id, 'c.txt', 'c');
    await postIn(alice, channel.id, 'filesform here', { file_ids: [c] });
    const sentForm = await receiver.waitFor((r) => r.path === '/files-form');
    assert.equal(new URLSearchParams(sentForm.body).get('file_ids'), c);
  });
});
