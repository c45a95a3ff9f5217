import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock, user } from '../../test-support/fakes';
import type { UserSource } from '../ports';
import { Usernames } from './usernames';

describe('usernames of long-poll consumers', () => {
  it('when a user polls again within 30 s, then the username is reused; after, it is looked up again (a rename shows)', async () => {
    const clock = new ManualClock();
    let name = 'bot';
    let lookups = 0;
    const users: UserSource = {
      usersByIds: async (ids) => {
        lookups += 1;
        return ids.map((id) => user(id, name));
      },
      userUpdatedCopies: async () => undefined,
    };
    const usernames = new Usernames(users, clock);
    assert.equal(await usernames.of('u1'), 'bot');
    name = 'renamed';
    clock.time += 29_000;
    assert.equal(await usernames.of('u1'), 'bot');
    assert.equal(lookups, 1);
    clock.time += 2_000;
    assert.equal(await usernames.of('u1'), 'renamed');
    assert.equal(lookups, 2);
  });
});
