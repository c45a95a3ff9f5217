import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_TYPE_HEADER, type BusMessage } from '@switchyard/event-bus';
import { StoredPostsWatch } from './stored-posts-watch';

const event = (value: unknown): BusMessage => ({ topic: 'posts.events', partition: 0, offset: '0', key: 'c', value, headers: {}, attempt: 1 });
const created = (id: string): BusMessage => event({ type: 'post.created', payload: { post: { id } } });
const refused = (id: string): BusMessage =>
  event({ type: 'post.refused', payload: { post_id: id, error: { id: 'api.post.create_post.root_id.app_error', message: 'bad root', status_code: 400 } } });

/** 'stored', the rejection, or 'pending' once the queued reactions have run. */
async function stateOf(stored: Promise<void>): Promise<unknown> {
  return Promise.race([stored.then(() => 'stored', (error: unknown) => error), new Promise((resolve) => setImmediate(() => resolve('pending')))]);
}

describe('StoredPostsWatch', () => {
  it('when posts begin to be awaited, then onWaiting is told once they are, before anything is published (the consumer stops lingering)', async () => {
    const watch = new StoredPostsWatch(10_000, () => new Error('timeout'));
    const told: number[] = [];
    watch.onWaiting = () => void told.push(watch.waiting);
    const pending = watch.expect(['p1', 'p2']);
    assert.deepEqual(told, [2], 'the waiters exist: a linger asked from then on is the short one');
    await watch.handler(created('p1'));
    await watch.handler(created('p2'));
    assert.equal(await stateOf(pending.stored), 'stored');
  });

  it('when posts are awaited while others already are, then onWaiting is not told again (the linger is already the short one); once nobody waits, the next ones tell it again', async () => {
    const watch = new StoredPostsWatch(10_000, () => new Error('timeout'));
    let told = 0;
    watch.onWaiting = () => void (told += 1);
    const first = watch.expect(['p1']);
    const second = watch.expect(['p2']);
    assert.equal(told, 1, 'the second hook found the first one waiting');
    await watch.handler(created('p1'));
    const third = watch.expect(['p3']);
    assert.equal(told, 1, 'p2 still waited');
    await watch.handler(created('p2'));
    await watch.handler(created('p3'));
    assert.deepEqual([await stateOf(first.stored), await stateOf(second.stored), await stateOf(third.stored)], ['stored', 'stored', 'stored']);
    watch.expect(['p4']).cancel();
    assert.equal(told, 2, 'nobody waited any more');
  });

  it('when a hook made several posts, then it is stored only once posts answered for every one, and the waiters are gone', async () => {
    const watch = new StoredPostsWatch(10_000, () => new Error('timeout'));
    const pending = watch.expect(['p1', 'p2', 'p3']);
    await watch.handler(created('p2'));
    await watch.handler(created('p2')); // redelivered (at least once): counts once
    await watch.handler(created('p1'));
    assert.equal(await stateOf(pending.stored), 'pending');
    assert.equal(watch.waiting, 1);
    await watch.handler(created('p3'));
    assert.equal(await stateOf(pending.stored), 'stored');
    assert.equal(watch.waiting, 0);
  });

  it('when posts refuses one of the posts, then the wait fails with its error and no post is awaited any more', async () => {
    const watch = new StoredPostsWatch(10_000, () => new Error('timeout'));
    const pending = watch.expect(['p1', 'p2']);
    await watch.handler(created('p1'));
    await watch.handler(refused('p2'));
    const outcome = await stateOf(pending.stored);
    assert.equal((outcome as { id?: unknown }).id, 'api.post.create_post.root_id.app_error');
    assert.equal((outcome as { statusCode?: unknown }).statusCode, 400);
    assert.equal(watch.waiting, 0);
  });

  it('when the bus wrote the event-type header, then other types and nobody waiting skip the message without reading its value', async () => {
    const unread = (type: string): BusMessage => ({
      ...event(undefined),
      headers: { [EVENT_TYPE_HEADER]: type },
      get value(): unknown {
        throw new Error('value read');
      },
    });
    const watch = new StoredPostsWatch(10_000, () => new Error('timeout'));
    await watch.handler(unread('post.created'));
    const pending = watch.expect(['p1']);
    for (const type of ['post.updated', 'reaction.added', 'file.attached']) await watch.handler(unread(type));
    await watch.handler({ ...created('p1'), headers: { [EVENT_TYPE_HEADER]: 'post.created' } });
    assert.equal(await stateOf(pending.stored), 'stored');
  });

  it('when posts does not answer in time, then the wait fails with the timeout error', async () => {
    const watch = new StoredPostsWatch(20, () => new Error('store timeout'));
    const pending = watch.expect(['p1']);
    await assert.rejects(pending.stored, /store timeout/);
    assert.equal(watch.waiting, 0);
  });

  it('when the wait is cancelled (the publish failed), then it never settles, even when posts answers later, and other waits go on', async () => {
    const watch = new StoredPostsWatch(30, () => new Error('timeout'));
    const cancelled = watch.expect(['p1']);
    const other = watch.expect(['p2']);
    cancelled.cancel();
    await watch.handler(created('p1'));
    await watch.handler(created('p2'));
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(await stateOf(cancelled.stored), 'pending');
    assert.equal(await stateOf(other.stored), 'stored');
    assert.equal(watch.waiting, 0);
  });
});
