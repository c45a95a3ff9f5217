import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QueryClient } from '@tanstack/react-query';
import { fakeApi, route } from '../../test-support/fake-api';
import { PEOPLE_PER_PAGE, peopleQuery } from './use-people';

const user = (n: number) => ({ id: `u${n}`, username: `user${n}`, roles: 'system_user', delete_at: 0 });

test('when a page of people is fetched, then GET /api/v4/users is asked for that page and per_page, with the CSRF and XHR headers', async () => {
  const server = fakeApi([route('GET', '/api/v4/users', [user(1), user(2)])]);
  try {
    const client = new QueryClient();
    const people = await client.fetchQuery(peopleQuery(3));
    assert.deepEqual(people.map((u) => u.username), ['user1', 'user2']);
    assert.equal(server.seen.length, 1);
    assert.deepEqual(server.seen[0]?.query, { page: '3', per_page: String(PEOPLE_PER_PAGE) });
    assert.equal(server.seen[0]?.headers['x-csrf-token'], 'csrf-1');
    assert.equal(server.seen[0]?.headers['x-requested-with'], 'XMLHttpRequest');
    assert.deepEqual(client.getQueryData(['users', 'list', 3]), people, 'cached under the people page key');
  } finally {
    server.restore();
  }
});

test('when the server refuses the list, then the query fails with its AppError id', async () => {
  const server = fakeApi([route('GET', '/api/v4/users', { id: 'api.context.permissions.app_error', message: 'No.', status_code: 403 }, 403)]);
  try {
    await assert.rejects(new QueryClient().fetchQuery({ ...peopleQuery(0), retry: false }), (error: { status?: number; id?: string }) => error.status === 403 && error.id === 'api.context.permissions.app_error');
  } finally {
    server.restore();
  }
});
