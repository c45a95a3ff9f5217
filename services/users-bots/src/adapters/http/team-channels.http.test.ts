import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Services, PostsInternalPaths } from '@switchyard/contracts';
import { verifyServiceCredential, type InternalRequest, type InternalResponse, type ServiceTransport } from '@switchyard/http-kit';
import { createSilentLogger } from '@switchyard/logger';
import { HttpTeamChannels } from './team-channels.http';
import { aUser } from '../contracts/fixtures';
import { actor, domainHarness } from '../../test-support/domain-harness';
import type { TeamChannels } from '../../domain/ports';
import { addTeamMember } from '../../domain/teams/add-team-member.usecase';
import { createTeam } from '../../domain/teams/create-team.usecase';

const SECRET = 'test-internal-secret-0123456789abcdef';

/** Records each call with the team events published before it. */
function recordingChannels(published: () => string[]): TeamChannels & { calls: { teamId: string; userId: string; eventsBefore: string[] }[] } {
  const calls: { teamId: string; userId: string; eventsBefore: string[] }[] = [];
  return { calls, joinDefault: async (teamId, userId) => void calls.push({ teamId, userId, eventsBefore: published() }) };
}

describe('default channels inside the team requests', () => {
  it('when a team is created or a member added, then the default channels are joined before the use case returns, after the team event', async () => {
    const h = domainHarness();
    const channels = recordingChannels(() => h.bus.types());
    const deps = { ...h.deps, teamChannels: channels };
    const creator = aUser();
    const joiner = aUser();
    await h.deps.users.insert(creator);
    await h.deps.users.insert(joiner);

    const team = await createTeam(deps, actor(creator.id), { name: 'defaults', displayName: 'Defaults', type: 'O' });
    assert.deepEqual(channels.calls, [{ teamId: team.id, userId: creator.id, eventsBefore: ['team.created'] }]);

    await addTeamMember(deps, actor(creator.id), team.id, joiner.id);
    assert.deepEqual(channels.calls.slice(1), [{ teamId: team.id, userId: joiner.id, eventsBefore: ['team.created', 'team.member_added'] }]);
    await addTeamMember(deps, actor(creator.id), team.id, joiner.id);
    assert.equal(channels.calls.length, 2, 'an existing member is not re-joined');
  });

  it('when posts is called, then it is the default-channels route signed as users-bots; when it fails, then nothing is thrown (the event is the fallback)', async () => {
    const requests: InternalRequest[] = [];
    let answer: InternalResponse | Error = { status: 204, headers: {}, body: Buffer.alloc(0) };
    const transport: ServiceTransport = {
      send: async (service, request) => {
        assert.equal(service, Services.posts);
        requests.push(request);
        if (answer instanceof Error) throw answer;
        return answer;
      },
      close: async () => undefined,
    };
    const adapter = new HttpTeamChannels(transport, SECRET, createSilentLogger());
    await adapter.joinDefault('t'.repeat(26), 'u'.repeat(26));
    assert.equal(requests[0]?.method, 'POST');
    assert.equal(requests[0]?.path, PostsInternalPaths.defaultChannels('t'.repeat(26), 'u'.repeat(26)));
    assert.equal(verifyServiceCredential({ method: 'POST', target: requests[0]!.path, headers: requests[0]!.headers as import('node:http').IncomingHttpHeaders }, SECRET), Services.usersBots);

    answer = new Error('connect ECONNREFUSED');
    await adapter.joinDefault('t'.repeat(26), 'u'.repeat(26));
    answer = { status: 503, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"id":"x","message":"busy","detailed_error":"","request_id":"","status_code":503}') };
    await adapter.joinDefault('t'.repeat(26), 'u'.repeat(26));
    assert.equal(requests.length, 3);
  });
});
