import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { patchConfig, uniqueName } from './support/fixtures';
import { eventually } from './support/eventually';
import { assertAppError, assertJson, raw, type RawResponse } from './support/http';
import { PICTURES, pngBomb, solidPng } from './support/pictures';
import { newChannel, outsider, postIn, type Actor } from './support/posts-fixtures';
import { wsWorld, type WsWorld } from './support/ws-world';

interface WireEmoji {
  id: string;
  create_at: number;
  update_at: number;
  delete_at: number;
  creator_id: string;
  name: string;
}

const pngSize = (bytes: Buffer): [number, number] => [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
const emojiName = (): string => uniqueName('em').toLowerCase().replace(/[^a-z0-9]/g, '-');

describe('custom emoji', { timeout: 300_000 }, () => {
  let world: WsWorld;
  let alice: Actor;
  let bob: Actor;

  before(async () => {
    world = await wsWorld();
    ({ alice, bob } = world);
  });
  after(async () => {
    await patchConfig(world.admin.client, { ServiceSettings: { EnableCustomEmoji: true } }).catch(() => undefined);
    await world?.stop();
  });

  /** `POST /emoji` with a form of the given parts (`emoji` JSON text and an `image` file), or a raw body. */
  const create = async (who: { token: string }, parts: { emoji?: unknown; image?: Buffer; filename?: string } | { rawBody: string; contentType: string }): Promise<RawResponse & { bytes: Buffer }> => {
    let body: FormData | string;
    const headers: Record<string, string> = { Authorization: `Bearer ${who.token}` };
    if ('rawBody' in parts) {
      body = parts.rawBody;
      headers['Content-Type'] = parts.contentType;
    } else {
      const form = new FormData();
      if (parts.emoji !== undefined) form.append('emoji', typeof parts.emoji === 'string' ? parts.emoji : JSON.stringify(parts.emoji));
      if (parts.image) form.append('image', new Blob([new Uint8Array(parts.image)], { type: 'image/png' }), parts.filename ?? 'emoji.png');
      body = form;
    }
    const response = await fetch(`${world.target.url}/api/v4/emoji`, { method: 'POST', headers, body, signal: AbortSignal.timeout(20_000) });
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    const json = (response.headers.get('content-type') ?? '').startsWith('application/json') ? (JSON.parse(text) as unknown) : undefined;
    return { status: response.status, headers: response.headers, text, json, cookies: [], bytes };
  };
  const image = async (who: Actor, id: string) => {
    const response = await fetch(`${world.target.url}/api/v4/emoji/${id}/image`, { headers: { Authorization: `Bearer ${who.token}` } });
    return { status: response.status, type: response.headers.get('content-type'), cache: response.headers.get('cache-control'), bytes: Buffer.from(await response.arrayBuffer()) };
  };
  const get = (who: Actor, path: string) => raw(world.target.url, 'GET', path, { token: who.token });
  const post = (who: Actor, path: string, body: unknown) => raw(world.target.url, 'POST', path, { token: who.token, body });

  it('when a user creates an emoji, then 200 with the reference fields, found by id, name, names, list, search and autocomplete, its image served, and emoji_added sent to everyone', async () => {
    const socket = await world.open(bob.token);
    const name = emojiName();
    const created = await create(alice, { emoji: { name, creator_id: alice.id }, image: PICTURES.png });
    assertJson(created, 200);
    const emoji = created.json as WireEmoji;
    assert.deepEqual(Object.keys(emoji).sort(), ['create_at', 'creator_id', 'delete_at', 'id', 'name', 'update_at']);
    assert.equal(emoji.name, name);
    assert.equal(emoji.creator_id, alice.id);
    assert.equal(emoji.delete_at, 0);
    assert.equal(emoji.update_at, emoji.create_at);
    const event = await socket.event('emoji_added', (f) => JSON.parse(String(f.data?.emoji ?? '{}')).id === emoji.id);
    assert.deepEqual(JSON.parse(String(event.data?.emoji)), emoji);

    assert.deepEqual((await get(bob, `/api/v4/emoji/${emoji.id}`)).json, emoji);
    assert.deepEqual((await get(bob, `/api/v4/emoji/name/${name}`)).json, emoji);
    assert.deepEqual((await post(bob, '/api/v4/emoji/names', [name, 'smile', emojiName()])).json, [emoji]);
    const listed = (await get(bob, '/api/v4/emoji?per_page=200&sort=name')).json as WireEmoji[];
    assert.ok(listed.some((e) => e.id === emoji.id));
    assert.deepEqual(((await post(bob, '/api/v4/emoji/search', { term: name.slice(3), prefix_only: false })).json as WireEmoji[]).map((e) => e.id), [emoji.id]);
    assert.deepEqual((await post(bob, '/api/v4/emoji/search', { term: name.slice(3), prefix_only: true })).json, []);
    assert.deepEqual(((await get(bob, `/api/v4/emoji/autocomplete?name=${name.slice(0, 8)}`)).json as WireEmoji[]).map((e) => e.id), [emoji.id]);

    const served = await image(bob, emoji.id);
    assert.equal(served.status, 200);
    assert.equal(served.type, 'image/png');
    assert.equal(served.cache, 'max-age=2592000, private');
    assert.equal(Buffer.compare(served.bytes, PICTURES.png), 0, 'a small image is stored as it came');
  });

  it('when the image is larger than 128 pixels, then it is scaled to fit 128 × 128 as PNG; a GIF keeps its type', async () => {
    const wide = await create(alice, { emoji: { name: emojiName(), creator_id: alice.id }, image: solidPng(300, 150) });
    assertJson(wide, 200);
    const served = await image(alice, (wide.json as WireEmoji).id);
    assert.equal(served.type, 'image/png');
    assert.deepEqual(pngSize(served.bytes), [128, 64]);
    const gif = await create(alice, { emoji: { name: emojiName(), creator_id: alice.id }, image: PICTURES.gif, filename: 'x.gif' });
    assertJson(gif, 200);
    assert.equal((await image(alice, (gif.json as WireEmoji).id)).type, 'image/gif');
  });

  it('when the form is wrong, then the reference\'s 400s, 403 and 413 in its order', async () => {
    const name = emojiName();
    const cases: [Parameters<typeof create>[1], number, string][] = [
      [{ image: PICTURES.png }, 400, 'api.context.invalid_body_param.app_error'],
      [{ emoji: '{"name":', image: PICTURES.png }, 400, 'api.context.invalid_body_param.app_error'],
      [{ emoji: { name: 5, creator_id: alice.id }, image: PICTURES.png }, 400, 'api.context.invalid_body_param.app_error'],
      [{ emoji: { name: 'has space', creator_id: alice.id }, image: PICTURES.png }, 400, 'model.emoji.name.app_error'],
      [{ emoji: { name: 'x'.repeat(65), creator_id: alice.id }, image: PICTURES.png }, 400, 'model.emoji.name.app_error'],
      [{ emoji: { name: '$where', creator_id: alice.id }, image: PICTURES.png }, 400, 'model.emoji.name.app_error'],
      [{ emoji: { name: 'smile', creator_id: alice.id }, image: PICTURES.png }, 400, 'model.emoji.system_emoji_name.app_error'],
      [{ emoji: { name: 'thumbsup', creator_id: alice.id }, image: PICTURES.png }, 400, 'model.emoji.system_emoji_name.app_error'],
      [{ emoji: { name, creator_id: 'x'.repeat(27) }, image: PICTURES.png }, 400, 'model.emoji.user_id.app_error'],
      [{ emoji: { name, creator_id: bob.id }, image: PICTURES.png }, 403, 'api.emoji.create.other_user.app_error'],
      [{ emoji: { name, creator_id: alice.id } }, 400, 'api.context.invalid_body_param.app_error'],
      [{ emoji: { name, creator_id: alice.id }, image: Buffer.from('not an image at all') }, 400, 'api.emoji.upload.image.app_error'],
      [{ emoji: { name, creator_id: alice.id }, image: pngBomb(20_000, 20_000) }, 400, 'api.emoji.upload.large_image.too_large.app_error'],
      [{ emoji: { name, creator_id: alice.id }, image: solidPng(1029, 10) }, 400, 'api.emoji.upload.large_image.too_large.app_error'],
      [{ emoji: { name, creator_id: alice.id }, image: Buffer.alloc(600 * 1024, 1) }, 413, 'api.emoji.create.too_large.app_error'],
      [{ rawBody: '{"name":"x"}', contentType: 'application/json' }, 400, 'api.emoji.create.parse.app_error'],
      [{ rawBody: '--zz\r\nContent-Disposition: form-data; name="emoji"\r\n\r\n{"na', contentType: 'multipart/form-data; boundary=zz' }, 400, 'api.emoji.create.parse.app_error'],
    ];
    for (const [parts, status, id] of cases) assertAppError(await create(alice, parts), status, id);
    // Nothing of it was stored.
    assertAppError(await get(alice, `/api/v4/emoji/name/${name}`), 404, 'app.emoji.get_by_name.no_result');
  });

  it('when a name is taken (also by several creations at once), then exactly one wins and the rest are 400 duplicate', async () => {
    const name = emojiName();
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(alice, { emoji: { name, creator_id: alice.id }, image: PICTURES.png })));
    assert.equal(answers.filter((a) => a.status === 200).length, 1, answers.map((a) => `${a.status} ${a.text.slice(0, 80)}`).join('\n'));
    for (const a of answers.filter((x) => x.status !== 200)) assertAppError(a, 400, 'api.emoji.create.duplicate.app_error');
    assertAppError(await create(bob, { emoji: { name, creator_id: bob.id }, image: PICTURES.png }), 400, 'api.emoji.create.duplicate.app_error');
  });

  it('when emoji are deleted, then only by their creator or someone with delete_others_emojis; the name is free again and the image gone', async () => {
    const name = emojiName();
    const emoji = (await create(alice, { emoji: { name, creator_id: alice.id }, image: PICTURES.png })).json as WireEmoji;
    const channel = await newChannel(alice, world.team);
    const post = await postIn(alice, channel.id, `:${name}:`);
    assertJson(await raw(world.target.url, 'POST', '/api/v4/reactions', { token: alice.token, body: { user_id: alice.id, post_id: post.id, emoji_name: name } }), 200);
    assertJson(await raw(world.target.url, 'POST', '/api/v4/reactions', { token: alice.token, body: { user_id: alice.id, post_id: post.id, emoji_name: 'tada' } }), 200);
    assertAppError(await raw(world.target.url, 'DELETE', `/api/v4/emoji/${emoji.id}`, { token: bob.token }), 403, 'api.context.permissions.app_error');
    assertAppError(await raw(world.target.url, 'DELETE', '/api/v4/emoji/not-an-id', { token: bob.token }), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await raw(world.target.url, 'DELETE', `/api/v4/emoji/${'e'.repeat(26)}`, { token: bob.token }), 404, 'app.emoji.get.no_result');
    assertJson(await raw(world.target.url, 'DELETE', `/api/v4/emoji/${emoji.id}`, { token: alice.token }), 200);
    assertAppError(await get(alice, `/api/v4/emoji/${emoji.id}`), 404, 'app.emoji.get.no_result');
    assert.deepEqual(((await get(alice, `/api/v4/posts/${post.id}/reactions`)).json as { emoji_name: string }[]).map((r) => r.emoji_name), ['tada'], 'the emoji\'s reactions went with it');
    assertAppError(await get(alice, `/api/v4/emoji/name/${name}`), 404, 'app.emoji.get_by_name.no_result');
    assert.equal((await image(alice, emoji.id)).status, 404);
    assertAppError(await raw(world.target.url, 'DELETE', `/api/v4/emoji/${emoji.id}`, { token: alice.token }), 404, 'app.emoji.get.no_result');
    const again = (await create(bob, { emoji: { name, creator_id: bob.id }, image: PICTURES.gif })).json as WireEmoji;
    assert.equal(again.name, name);
    const carol = await outsider(world.target.url, world.admin, 'emc');
    assertAppError(await raw(world.target.url, 'DELETE', `/api/v4/emoji/${again.id}`, { token: carol.token }), 403, 'api.context.permissions.app_error');
    assertJson(await raw(world.target.url, 'DELETE', `/api/v4/emoji/${again.id}`, { token: world.admin.token }), 200);
  });

  it('when lists, search, names and autocomplete get bad input, then the reference\'s answers, never a 5xx', async () => {
    assertAppError(await get(alice, '/api/v4/emoji?sort=create_at'), 400, 'api.context.invalid_url_param.app_error');
    assertJson(await get(alice, '/api/v4/emoji?page=-1&per_page=100000'), 200);
    assertAppError(await raw(world.target.url, 'GET', '/api/v4/emoji'), 401, 'api.context.session_expired.app_error');
    assertAppError(await get(alice, '/api/v4/emoji/name/%24where'), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await get(alice, `/api/v4/emoji/name/${'a'.repeat(65)}`), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await get(alice, '/api/v4/emoji/not-an-id'), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await get(alice, '/api/v4/emoji/not-an-id/image'), 400, 'api.context.invalid_url_param.app_error');
    for (const body of [{ term: '' }, {}, { term: { $regex: '.*' } }, null, ['x']]) assertAppError(await post(alice, '/api/v4/emoji/search', body), 400, 'api.context.invalid_body_param.app_error');
    assert.deepEqual((await post(alice, '/api/v4/emoji/search', { term: '.*' })).json, []);
    assert.deepEqual((await post(alice, '/api/v4/emoji/search', { term: 'x'.repeat(10_000) })).json, []);
    assertAppError(await get(alice, '/api/v4/emoji/autocomplete?name='), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await get(alice, '/api/v4/emoji/autocomplete'), 400, 'api.context.invalid_url_param.app_error');
    assertAppError(await post(alice, '/api/v4/emoji/names', []), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await post(alice, '/api/v4/emoji/names', null), 400, 'api.context.invalid_body_param.app_error');
    assertAppError(await post(alice, '/api/v4/emoji/names', [1, 2]), 400, 'api.payload.parse.error');
    assertAppError(await post(alice, '/api/v4/emoji/names', { names: ['a'] }), 400, 'api.payload.parse.error');
    assertAppError(await post(alice, '/api/v4/emoji/names', Array.from({ length: 201 }, (_, i) => `n${i}`)), 400, 'api.emoji.get_multiple_by_name_too_many.request_error');
  });

  it('when EnableCustomEmoji is off, then 501 api.emoji.disabled.app_error where the reference checks first, 403 elsewhere, and the client config says so', async () => {
    const emoji = (await create(alice, { emoji: { name: emojiName(), creator_id: alice.id }, image: PICTURES.png })).json as WireEmoji;
    await patchConfig(world.admin.client, { ServiceSettings: { EnableCustomEmoji: false } });
    try {
      await eventually('emoji disabled', async () => ((await get(alice, '/api/v4/emoji')).status === 501 ? true : undefined));
      for (const path of ['/api/v4/emoji', `/api/v4/emoji/${emoji.id}`, `/api/v4/emoji/name/${emoji.name}`, `/api/v4/emoji/${emoji.id}/image`]) assertAppError(await get(alice, path), 501, 'api.emoji.disabled.app_error');
      assertAppError(await create(alice, { emoji: { name: emojiName(), creator_id: alice.id }, image: PICTURES.png }), 501, 'api.emoji.disabled.app_error');
      assertAppError(await post(alice, '/api/v4/emoji/names', [emoji.name]), 501, 'api.emoji.disabled.app_error');
      assertAppError(await post(alice, '/api/v4/emoji/search', { term: 'x' }), 403, 'api.emoji.disabled.app_error');
      assertAppError(await get(alice, '/api/v4/emoji/autocomplete?name=x'), 403, 'api.emoji.disabled.app_error');
      assertAppError(await raw(world.target.url, 'DELETE', `/api/v4/emoji/${emoji.id}`, { token: alice.token }), 403, 'api.emoji.disabled.app_error');
      assert.equal((await raw(world.target.url, 'GET', '/api/v4/config/client?format=old')).json.EnableCustomEmoji, 'false');
    } finally {
      await patchConfig(world.admin.client, { ServiceSettings: { EnableCustomEmoji: true } });
    }
    await eventually('emoji enabled again', async () => ((await get(alice, '/api/v4/emoji')).status === 200 ? true : undefined));
    assertJson(await get(alice, `/api/v4/emoji/${emoji.id}`), 200);
  });
});
