import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QueryClient } from '@tanstack/react-query';
import { keys } from '../../api/query-keys';
import { applyLiveEvent, onLiveConnected } from './live-event-effects';
import { onOwnTrigger } from '../dialogs/open-dialog-store';

/** A client whose queries have data and never refetch by themselves (no observers), so invalidation is visible. */
function seeded(...queryKeys: (readonly unknown[])[]): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  for (const key of queryKeys) client.setQueryData(key, { seeded: true });
  return client;
}
const invalidated = (client: QueryClient, key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated ?? false;
const post = (over: Record<string, unknown> = {}) => JSON.stringify({ id: 'p1', channel_id: 'c1', user_id: 'u1', root_id: '', message: 'hi', create_at: 1, update_at: 1, edit_at: 0, delete_at: 0, type: '', props: {}, ...over });

test('when a posted, post_edited or post_deleted event arrives, then only that channel\'s posts are refreshed', () => {
  for (const event of ['posted', 'post_edited', 'post_deleted']) {
    const client = seeded(keys.channelPosts('c1'), keys.channelPosts('c2'));
    applyLiveEvent(client, JSON.stringify({ event, data: { post: post() }, broadcast: { channel_id: '' } }));
    assert.equal(invalidated(client, keys.channelPosts('c1')), true, event);
    assert.equal(invalidated(client, keys.channelPosts('c2')), false, event);
  }
});

test('when a reaction event arrives, then the channel named by the broadcast and every reaction list are refreshed', () => {
  const client = seeded(keys.channelPosts('c2'), keys.reactionsOf('p9'), keys.channelPosts('c1'));
  applyLiveEvent(client, JSON.stringify({ event: 'reaction_added', data: { reaction: '{}' }, broadcast: { channel_id: 'c2' } }));
  assert.equal(invalidated(client, keys.channelPosts('c2')), true);
  assert.equal(invalidated(client, keys.reactionsOf('p9')), true);
  assert.equal(invalidated(client, keys.channelPosts('c1')), false);
});

test('when an ephemeral_message arrives, then it is kept for its channel (once, even if sent twice)', () => {
  const client = seeded();
  const message = JSON.stringify({ event: 'ephemeral_message', data: { post: post({ id: 'e1', type: 'system_ephemeral', channel_id: 'c7' }) } });
  applyLiveEvent(client, message);
  applyLiveEvent(client, message);
  const kept = client.getQueryData<{ id: string }[]>(keys.ephemeral('c7')) ?? [];
  assert.deepEqual(kept.map((p) => p.id), ['e1']);
});

test('when a message is not JSON, not an object, unknown, or carries a broken post, then nothing changes', () => {
  const client = seeded(keys.channelPosts('c1'), keys.reactions);
  for (const text of ['not json', 'null', '42', JSON.stringify({ event: 'hello', data: {} }), JSON.stringify({ event: 'posted', data: { post: '{broken' } })]) applyLiveEvent(client, text);
  assert.equal(invalidated(client, keys.channelPosts('c1')), false);
  assert.equal(invalidated(client, keys.reactions), false);
});

test('when the socket (re)connects, then every channel query is refreshed and others are not', () => {
  const client = seeded(keys.channelPosts('c1'), keys.bots);
  onLiveConnected(client);
  assert.equal(invalidated(client, keys.channelPosts('c1')), true);
  assert.equal(invalidated(client, keys.bots), false);
});

test('when an open_dialog event arrives for a trigger this page pressed, then it is shown; another trigger\'s dialog is not', () => {
  const client = seeded();
  const event = (trigger: string) => JSON.stringify({ event: 'open_dialog', data: { dialog: JSON.stringify({ trigger_id: trigger, url: 'http://x.test/d', dialog: { title: `T ${trigger}` } }) } });
  applyLiveEvent(client, event('other'));
  assert.equal(client.getQueryData(keys.openDialog) ?? null, null);
  onOwnTrigger(client, 'mine');
  applyLiveEvent(client, event('mine'));
  assert.equal(client.getQueryData<{ dialog: { title: string } }>(keys.openDialog)?.dialog.title, 'T mine');
});
