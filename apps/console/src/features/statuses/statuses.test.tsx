import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QueryClient } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { keys } from '../../api/query-keys';
import { applyLiveEvent } from '../channel/live-event-effects';
import { StatusDot } from './status-dot';
import { applyStatusChange, type UserStatus } from './use-statuses';

const s = (user_id: string, status: UserStatus['status']): UserStatus => ({ user_id, status, manual: false, last_activity_at: 0 });

test('when a status changes, then every cached status list holding that user shows the new value and other users keep theirs', () => {
  const client = new QueryClient();
  client.setQueryData(keys.statusesOf('a,b'), [s('a', 'online'), s('b', 'away')]);
  client.setQueryData(keys.statusesOf('a'), [s('a', 'online')]);
  client.setQueryData(keys.statusesOf('c'), [s('c', 'offline')]);
  applyStatusChange(client, 'a', 'dnd');
  assert.deepEqual(client.getQueryData<UserStatus[]>(keys.statusesOf('a,b'))?.map((x) => x.status), ['dnd', 'away']);
  assert.deepEqual(client.getQueryData<UserStatus[]>(keys.statusesOf('a'))?.map((x) => x.status), ['dnd']);
  assert.deepEqual(client.getQueryData<UserStatus[]>(keys.statusesOf('c'))?.map((x) => x.status), ['offline']);
});

test('when the WebSocket sends status_change, then it is applied; without a user id or status it is ignored', () => {
  const client = new QueryClient();
  client.setQueryData(keys.statusesOf('a'), [s('a', 'online')]);
  applyLiveEvent(client, JSON.stringify({ event: 'status_change', data: { user_id: 'a' } }));
  assert.equal(client.getQueryData<UserStatus[]>(keys.statusesOf('a'))?.[0]?.status, 'online');
  applyLiveEvent(client, JSON.stringify({ event: 'status_change', data: { user_id: 'a', status: 'away' }, broadcast: { user_id: 'a' } }));
  assert.equal(client.getQueryData<UserStatus[]>(keys.statusesOf('a'))?.[0]?.status, 'away');
});

test('when a post is edited (pinning is an edit), then the channel\'s pinned list is refreshed too', () => {
  const client = new QueryClient();
  client.setQueryData(keys.pinned('c1'), { order: [], posts: {} });
  client.setQueryData(keys.pinned('c2'), { order: [], posts: {} });
  applyLiveEvent(client, JSON.stringify({ event: 'post_edited', data: { post: JSON.stringify({ id: 'p', channel_id: 'c1', is_pinned: true }) } }));
  assert.equal(client.getQueryState(keys.pinned('c1'))?.isInvalidated, true);
  assert.equal(client.getQueryState(keys.pinned('c2'))?.isInvalidated, false);
});

test('when a status is shown, then it is a dot named in words; nothing when unknown', () => {
  assert.equal(renderToStaticMarkup(<StatusDot status="dnd" />), '<span class="status-dot status-dnd" role="img" aria-label="Do not disturb" title="Do not disturb"></span>');
  assert.match(renderToStaticMarkup(<StatusDot status="online" />), /aria-label="Online"/);
  assert.equal(renderToStaticMarkup(<StatusDot status={undefined} />), '');
});
