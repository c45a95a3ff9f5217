import assert from 'node:assert/strict';
import { it } from 'node:test';
import { InternalPaths, PostsInternalPaths, Services } from '@switchyard/contracts';
import { internalError, notFound } from '@switchyard/errors';
import { createHttpApp, InProcessTransport, internalKeys, sendJson, serviceOnly } from '@switchyard/http-kit';
import { createSilentLogger } from '@switchyard/logger';
import { membershipSourceContract, type MembershipSeed } from '../contracts/membership-source.contract';
import { HttpDirectory } from './directory.http';

const keys = internalKeys({ INTERNAL_SECRET: 'membership-contract-secret-0123456789' });

/**
 * posts' and users-bots' internal routes as their contracts describe them (only realtime may call them,
 * with its service credential), over the in-process transport of the embedded runtime.
 */
function services(seed: MembershipSeed, failing = false): InProcessTransport {
  const ready = async () => ({ ok: true, checks: {} });
  const posts = createHttpApp({ service: Services.posts, logger: createSilentLogger(), ready });
  posts.app.get(PostsInternalPaths.channelMemberIds('CHANNEL').replace('CHANNEL', ':channel_id'), serviceOnly(keys, [Services.realtime]), (req, res) => {
    if (failing) throw internalError('app.channel.get_members.app_error', 'store down');
    const members = seed.channels[String(req.params.channel_id)];
    if (!members) throw notFound('app.channel.get.existing.app_error', 'Unable to find the existing channel.');
    sendJson(res, 200, { user_ids: members });
  });
  const users = createHttpApp({ service: Services.usersBots, logger: createSilentLogger(), ready });
  users.app.get(`${InternalPaths.teamMember}/:team_id/members/:user_id`, serviceOnly(keys, [Services.realtime]), (req, res) => {
    const member = seed.teamMembers.find((m) => m.teamId === req.params.team_id && m.userId === req.params.user_id);
    if (!member) throw notFound('app.team.get_member.missing.app_error', 'No team member found for that user ID and team ID.');
    sendJson(res, 200, { team_id: member.teamId, user_id: member.userId, roles: 'team_user', delete_at: member.deleteAt });
  });
  return new InProcessTransport({ [Services.posts]: posts.finalize(), [Services.usersBots]: users.finalize() });
}

membershipSourceContract('HttpDirectory (posts and users-bots internal APIs)', async (seed) => new HttpDirectory(services(seed), keys));

it('when posts fails (500), then the lookup rejects instead of answering "no members" (the event is retried)', async () => {
  const directory = new HttpDirectory(services({ channels: {}, teamMembers: [] }, true), keys);
  await assert.rejects(directory.channelMemberIds('c'.repeat(26)), (error: { statusCode?: number }) => error.statusCode === 500);
});
