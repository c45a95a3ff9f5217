import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Topics } from '@switchyard/contracts';
import { newId } from '@switchyard/ids';
import { assertError } from '../../test-support/assert-error';
import { postsHarness, type Caller, type PostsHarness } from '../../test-support/http-harness';

type Json = Record<string, unknown>;
interface PostList {
  order: string[];
  posts: Record<string, Json>;
  next_post_id: string;
  prev_post_id: string;
  has_next?: boolean;
}

describe('threads: replies, reply_count and GET /posts/{id}/thread', () => {
  let h: PostsHarness;
  let alice: Caller;
  let bob: Caller;
  let team: string;
  let channelId: string;
  let root: string;
  let replies: string[];

  const post = async (as: Caller, body: Json = {}, channel = channelId): Promise<Json> => {
    h.clock.advance(10);
    const res = await h.post(as, channel, body);
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as Json;
  };
  const thread = async (id: string, query = '', as: Caller = alice) => h.request('GET', `/api/v4/posts/${id}/thread${query}`, { as });
  const list = async (id: string, query = ''): Promise<PostList> => {
    const res = await thread(id, query);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as PostList;
  };

  before(async () => {
    h = await postsHarness();
    team = h.team();
    alice = h.user({ teamId: team });
    bob = h.user({ teamId: team });
    channelId = (await h.channel(alice, team)).id;
    await h.join(channelId, bob, alice);
    root = String((await post(alice, { message: 'root' })).id);
    replies = [];
    for (const [i, who] of [alice, bob, alice].entries()) {
      const reply = await post(who, { message: `reply ${i}`, root_id: root });
      assert.equal(reply.reply_count, i + 1, 'the create answer of a reply carries the new count');
      replies.push(String(reply.id));
      await h.app.outbox.idle(); // each reply's post.created goes out before the next reply
    }
    await post(alice, { message: 'another root' });
    await h.app.outbox.idle();
  });
  after(async () => h.stop());

  it('when a thread has three replies, then the root and every reply carry reply_count 3 in every answer, and events carry the count at the time', async () => {
    for (const id of [root, ...replies]) assert.equal((await h.request('GET', `/api/v4/posts/${id}`, { as: bob })).json().reply_count, 3);
    const channelList = (await h.request('GET', `/api/v4/channels/${channelId}/posts`, { as: bob })).json() as PostList;
    for (const id of [root, ...replies]) assert.equal(channelList.posts[id]?.reply_count, 3);
    const created = h.sink.of(Topics.postsEvents, 'post.created').map((e) => e.value.payload.post as Json);
    assert.deepEqual(replies.map((id) => created.find((p) => p.id === id)?.reply_count), [1, 2, 3]);
  });

  it('when the thread is read from the root, then order is the root then its replies oldest first, with no paging fields', async () => {
    const page = await list(root);
    assert.deepEqual(page.order, [root, ...replies]);
    assert.deepEqual(Object.keys(page.posts).sort(), [root, ...replies].sort());
    assert.equal(page.next_post_id, '');
    assert.equal(page.prev_post_id, '');
    assert.equal(page.has_next, undefined);
    assert.deepEqual(await list(root, '?direction=down'), page);
  });

  it('when the thread is read from a reply, then that reply comes first and the root and other replies follow once each', async () => {
    const page = await list(replies[1] as string);
    assert.deepEqual(page.order, [replies[1], root, replies[0], replies[2]]);
  });

  it('when direction, perPage and a cursor are given, then the reference order, page size (root counted) and has_next apply', async () => {
    assert.deepEqual((await list(root, '?direction=up')).order, [root, replies[2], replies[1], replies[0]]);
    const first = await list(root, '?direction=down&perPage=2');
    assert.deepEqual(first.order, [root, replies[0]]);
    assert.equal(first.has_next, true);
    const cursor = first.posts[replies[0] as string] as { create_at: number };
    const second = await list(root, `?direction=down&perPage=2&fromCreateAt=${cursor.create_at}&fromPost=${replies[0]}`);
    assert.deepEqual(second.order, [root, replies[1], replies[2]]);
    assert.equal(second.has_next, false);
    const upwards = await list(root, `?direction=up&perPage=1&fromCreateAt=${cursor.create_at}&fromPost=${replies[0]}`);
    assert.deepEqual(upwards.order, [root]);
  });

  it('when skipFetchThreads or collapsedThreads are asked, then only the post, or the post with its direct replies and thread fields', async () => {
    assert.deepEqual((await list(replies[0] as string, '?skipFetchThreads=true')).order, [replies[0]]);
    assert.deepEqual((await list(replies[0] as string, '?collapsedThreads=true')).order, [replies[0]]);
    const collapsed = await list(root, '?collapsedThreads=true');
    assert.deepEqual(collapsed.order, [root, ...replies]);
    const head = collapsed.posts[root] as { participants: { id: string }[]; is_following: boolean; reply_count: number };
    assert.deepEqual(head.participants.map((p) => p.id).sort(), [alice.id, bob.id].sort());
    assert.equal(head.is_following, true);
    assert.equal(head.reply_count, 3);
  });

  it('when the query is invalid, then 400 api.context.invalid_body_param.app_error naming it, in the reference order', async () => {
    for (const [query, name] of [
      ['?perPage=201', 'perPage'],
      ['?perPage=ten', 'perPage'],
      ['?perPage=x&direction=sideways', 'perPage'],
      ['?direction=sideways', 'direction'],
      ['?fromCreateAt=soon', 'fromCreateAt'],
      [`?fromPost=${root}`, 'if fromPost is set, then fromCreateAt must also be set'],
      ['?fromUpdateAt=1.5', 'fromUpdateAt'],
      ['?fromCreateAt=5&fromUpdateAt=5', 'fromUpdateAt'],
      ['?updatesOnly=true', 'fromUpdateAt'],
      ['?updatesOnly=true&fromUpdateAt=5&direction=up', 'updatesOnly'],
      ['?fromCreateAt=99999999999999999999', 'fromCreateAt'],
    ] as const) {
      const res = await thread(root, query);
      assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
      assert.equal(res.json().id, 'api.context.invalid_body_param.app_error', query);
      assert.ok(String(res.json().message).includes(name), `${query}: ${res.json().message}`);
    }
  });

  it('when the post is unknown, the caller cannot read the channel or the id is malformed, then 404, 403 and 400 with the reference ids', async () => {
    // As GET /posts/{id}: the channel-by-post permission check answers first, so only a system admin sees the 404.
    const unknown = await thread(newId(), '', h.user({ roles: 'system_user system_admin' }));
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().id, 'app.post.get.app_error');
    assert.equal((await thread(newId())).statusCode, 403);
    const outsider = h.user();
    const privateChannel = (await h.channel(alice, team, 'P')).id;
    const secret = String((await post(alice, { message: 'secret' }, privateChannel)).id);
    const denied = await thread(secret, '', outsider);
    assert.equal(denied.statusCode, 403);
    assert.equal(denied.json().id, 'api.context.permissions.app_error');
    const malformed = await h.request('GET', '/api/v4/posts/nope/thread', { as: alice });
    assert.equal(malformed.statusCode, 400);
    assert.equal(malformed.json().id, 'api.context.invalid_url_param.app_error');
  });

  it('when a reply names a bad root, then the reference ids: unknown, malformed, deleted or nested → root_id; another channel → channel_root_id; archived channel first', async () => {
    const other = (await h.channel(alice, team)).id;
    const elsewhere = String((await post(alice, { message: 'elsewhere' }, other)).id);
    const gone = String((await post(alice, { message: 'to delete' })).id);
    assert.equal((await h.request('DELETE', `/api/v4/posts/${gone}`, { as: alice })).statusCode, 200);
    for (const [rootId, id] of [
      [newId(), 'api.post.create_post.root_id.app_error'],
      ['not-an-id', 'api.post.create_post.root_id.app_error'],
      [gone, 'api.post.create_post.root_id.app_error'],
      [replies[0], 'api.post.create_post.root_id.app_error'],
      [elsewhere, 'api.post.create_post.channel_root_id.app_error'],
    ] as const) {
      const res = await h.post(alice, channelId, { root_id: rootId });
      assert.equal(res.statusCode, 400, `${rootId}: ${res.body}`);
      assert.equal(res.json().id, id, String(rootId));
    }
    const archived = (await h.channel(alice, team)).id;
    assert.equal((await h.request('DELETE', `/api/v4/channels/${archived}`, { as: alice })).statusCode, 200);
    const res = await h.post(alice, archived, { root_id: newId() });
    assert.equal(res.json().id, 'api.post.create_post.can_not_post_to_deleted.error');
  });

  it('when a reply is deleted, then the count drops and the thread skips it; when the root is deleted, then its replies go too', async () => {
    const top = String((await post(bob, { message: 'short thread' })).id);
    const a = String((await post(alice, { root_id: top })).id);
    const b = String((await post(bob, { root_id: top })).id);
    assert.equal((await h.request('DELETE', `/api/v4/posts/${a}`, { as: alice })).statusCode, 200);
    assert.equal((await h.request('GET', `/api/v4/posts/${top}`, { as: alice })).json().reply_count, 1);
    assert.deepEqual((await list(top)).order, [top, b]);
    assert.equal((await h.request('DELETE', `/api/v4/posts/${top}`, { as: bob })).statusCode, 200);
    assertError(await h.request('GET', `/api/v4/posts/${b}`, { as: bob }), 404, 'app.post.get.app_error');
    assertError(await thread(top), 404, 'app.post.get.app_error');
  });
});
