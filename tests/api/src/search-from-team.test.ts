import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Team } from '@mattermost/types/teams';
import type { AdminSession } from './support/fixtures';
import { givenAdminWorld } from './support/admin-world';
import { assertJson, raw } from './support/http';
import { newChannel, newTeam, outsider, postIn, teamMember, type Actor } from './support/posts-fixtures';
import type { Target } from './support/target';

/** A word no other test (or earlier run on a shared server) has written. */
const unique = (prefix: string): string => `${prefix}${randomBytes(5).toString('hex').replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)] ?? 'q')}`;

/**
 * `from:` matches only authors who are members of the searched team (mattermost-wire-3.md §2.2; the reference's
 * `UserId IN (SELECT Id FROM Users, TeamMembers WHERE TeamMembers.TeamId = :TeamId …)`), and of any team in
 * the all-teams form; `-from:` alone keeps only members' posts too. DMs are searched in every team, so a DM
 * partner from another team shows the difference.
 */
describe('post search: from: and team membership', { timeout: 300_000 }, () => {
  let target: Target;
  let admin: AdminSession;
  let teamA: Team;
  let teamB: Team;
  let alice: Actor;
  let bob: Actor;
  let carol: Actor;
  let dave: Actor;

  const found = async (actor: Actor, terms: string, teamId: string | null): Promise<string[]> => {
    const path = teamId === null ? '/api/v4/posts/search' : `/api/v4/teams/${teamId}/posts/search`;
    const response = await raw(target.url, 'POST', path, { token: actor.token, body: { terms, is_or_search: false } });
    assertJson(response, 200);
    return (response.json as { order: string[] }).order;
  };

  before(async () => {
    ({ target, admin } = await givenAdminWorld());
    teamA = await newTeam(admin);
    teamB = await newTeam(admin);
    alice = await teamMember(target.url, admin, teamA, 'fa');
    await admin.client.addToTeam(teamB.id, alice.id);
    bob = await teamMember(target.url, admin, teamA, 'fb');
    carol = await teamMember(target.url, admin, teamB, 'fc');
    dave = await outsider(target.url, admin, 'fd');
  });
  after(async () => {
    await target?.stop();
  });

  it('when the author is not a member of the searched team, then from: finds none of their posts, even in a DM the caller can read', async () => {
    const w = unique('fromteam');
    const channel = await newChannel(alice, teamA);
    await bob.client.addToChannel(bob.id, channel.id);
    const byBob = await postIn(bob, channel.id, `${w} from bob`);
    const withCarol = await alice.client.createDirectChannel([alice.id, carol.id]);
    const byCarol = await postIn(carol, withCarol.id, `${w} from carol`);
    const withDave = await alice.client.createDirectChannel([alice.id, dave.id]);
    const byDave = await postIn(dave, withDave.id, `${w} from dave`);

    // DMs belong to every team's search: without from: all three are found in team A.
    assert.deepEqual(await found(alice, w, teamA.id), [byDave.id, byCarol.id, byBob.id]);
    assert.deepEqual(await found(alice, `from:${bob.username} ${w}`, teamA.id), [byBob.id]);
    assert.deepEqual(await found(alice, `from:${carol.username} ${w}`, teamA.id), [], 'carol is not a member of team A');
    assert.deepEqual(await found(alice, `from:${carol.username} ${w}`, teamB.id), [byCarol.id]);
    assert.deepEqual(await found(alice, `from:${bob.username} ${w}`, teamB.id), [], 'bob is not a member of team B (and his channel is not in it)');
    assert.deepEqual(await found(alice, `from:${carol.username} from:${bob.username} ${w}`, teamA.id), [byBob.id]);
    assert.deepEqual(await found(alice, `from:${dave.username} ${w}`, teamA.id), [], 'dave is in no team');
    // The all-teams form: a member of any team.
    assert.deepEqual(await found(alice, `from:${carol.username} ${w}`, null), [byCarol.id]);
    assert.deepEqual(await found(alice, `from:${dave.username} ${w}`, null), []);
    assert.deepEqual(await found(alice, `from:${bob.username} from:${dave.username} from:${carol.username} ${w}`, null), [byCarol.id, byBob.id]);
    // With from:, -from: only removes that author's posts.
    assert.deepEqual(await found(alice, `from:${bob.username} -from:${carol.username} ${w}`, teamA.id), [byBob.id]);
  });

  it('when -from: is used alone, then only posts of the searched team\'s members other than that author are found (any team in the all-teams form)', async () => {
    const w = unique('notfrom');
    const channel = await newChannel(alice, teamA);
    await bob.client.addToChannel(bob.id, channel.id);
    const byAlice = await postIn(alice, channel.id, `${w} from alice`);
    const byBob = await postIn(bob, channel.id, `${w} from bob`);
    const withCarol = await alice.client.createDirectChannel([alice.id, carol.id]);
    const byCarol = await postIn(carol, withCarol.id, `${w} from carol`);
    const aliceToCarol = await postIn(alice, withCarol.id, `${w} from alice to carol`);
    const withDave = await alice.client.createDirectChannel([alice.id, dave.id]);
    const byDave = await postIn(dave, withDave.id, `${w} from dave`);

    assert.deepEqual(await found(alice, w, teamA.id), [byDave.id, aliceToCarol.id, byCarol.id, byBob.id, byAlice.id]);
    // The reference: UserId IN (SELECT Id FROM Users, TeamMembers WHERE TeamId = :TeamId AND Username NOT IN (…)).
    assert.deepEqual(await found(alice, `-from:${bob.username} ${w}`, teamA.id), [aliceToCarol.id, byAlice.id], 'carol and dave are not members of team A');
    assert.deepEqual(await found(alice, `-from:${alice.username} ${w}`, teamA.id), [byBob.id]);
    assert.deepEqual(await found(alice, `-from:${bob.username} ${w}`, teamB.id), [aliceToCarol.id, byCarol.id], 'alice and carol are members of team B (the team A channel is not searched there)');
    assert.deepEqual(await found(alice, `-from:${bob.username} ${w}`, null), [aliceToCarol.id, byCarol.id, byAlice.id], 'dave is in no team');
    // An unknown name excludes nobody, and still only members are found.
    assert.deepEqual(await found(alice, `-from:nobody${w} ${w}`, teamA.id), [aliceToCarol.id, byBob.id, byAlice.id]);
  });
});
