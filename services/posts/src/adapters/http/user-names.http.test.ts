import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { InternalRequest, InternalResponse, ServiceTransport } from '@switchyard/http-kit';
import { HttpUserNames } from './user-names.http';

const SECRET = 'test-internal-secret-0123456789abcdef';
const BOB = 'b'.repeat(26);

/** users-bots stand-in: its by-usernames route answers from `users` (name → id), and every request is counted. */
class UsersByName implements ServiceTransport {
  public asked: string[][] = [];
  public constructor(public users: Map<string, string>) {}

  public async send(_service: string, request: InternalRequest): Promise<InternalResponse> {
    const { usernames } = JSON.parse(String(request.body)) as { usernames: string[] };
    this.asked.push(usernames);
    const found = usernames.flatMap((username) => {
      const id = this.users.get(username);
      return id === undefined ? [] : [{ id, username }];
    });
    return { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(found)) };
  }

  public async close(): Promise<void> {}
}

test('when a user is renamed and forgotten, then the old name no longer names them and the new one is asked for', async () => {
  const transport = new UsersByName(new Map([['bob', BOB]]));
  const names = new HttpUserNames(transport, SECRET, () => 1_000);
  assert.deepEqual([...(await names.idsByUsernames(['bob']))], [['bob', BOB]]);
  assert.deepEqual([...(await names.idsByUsernames(['Bob']))], [['bob', BOB]], 'cached');
  assert.equal(transport.asked.length, 1);

  transport.users = new Map([['robert', BOB]]);
  assert.deepEqual([...(await names.idsByUsernames(['bob']))], [['bob', BOB]], 'without forget the cached answer stays');
  names.forget('u'.repeat(26));
  assert.deepEqual([...(await names.idsByUsernames(['bob']))], [['bob', BOB]], 'forgetting another user keeps bob');

  names.forget(BOB);
  assert.deepEqual([...(await names.idsByUsernames(['bob', 'robert']))], [['robert', BOB]]);
  assert.deepEqual(transport.asked.at(-1), ['bob', 'robert']);
});
