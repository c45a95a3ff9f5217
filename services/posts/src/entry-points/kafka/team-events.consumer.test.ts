import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { envelope, Topics } from '@switchyard/contracts';
import type { BusMessage } from '@switchyard/event-bus';
import { ManualClock, newId } from '@switchyard/ids';
import { createSilentLogger } from '@switchyard/logger';
import { defaultSystemConfig, MutableConfigView } from '@switchyard/system-config';
import { memoryRepositories } from '../../adapters/memory';
import type { Deps } from '../../domain/ports';
import { FakeUsers } from '../../test-support/fake-users';
import { postsHarness } from '../../test-support/http-harness';
import { RecordingSink } from '../../test-support/recording-sink';
import { until } from '../../test-support/until';
import { teamEventsHandler } from './team-events.consumer';

function setup() {
  const users = new FakeUsers();
  const sink = new RecordingSink();
  const liveConfig = new MutableConfigView();
  liveConfig.replace(defaultSystemConfig());
  const repositories = memoryRepositories();
  const deps: Deps = { ...repositories, cachedChannels: { cached: (id) => repositories.channels.findById(id) }, cachedMembers: { cachedMember: (channelId, userId) => repositories.channelMembers.find(channelId, userId) }, clock: new ManualClock(), users, userNames: { idsByUsernames: async () => new Map() }, events: sink, liveConfig, relay: async () => undefined, relayAll: async () => undefined };
  const handle = teamEventsHandler(deps, createSilentLogger());
  let offset = 0;
  const deliver = (type: string, payload: unknown, id?: string) => {
    const message: BusMessage = { topic: Topics.usersEvents, partition: 0, offset: String(offset++), key: 'k', value: envelope(type, payload, 1, id), headers: {}, attempt: 1 };
    return handle(message);
  };
  return { deps, users, sink, deliver };
}

describe('users.events team consumer', () => {
  it('when team.created arrives, then town-square and off-topic exist as open channels created by the creator, who is a member of both', async () => {
    const { deps, users, sink, deliver } = setup();
    const teamId = newId();
    const creator = newId();
    users.addTeam(teamId, 'alpha');
    await deliver('team.created', { userId: creator, teamId });
    const town = await deps.channels.findByName(teamId, 'town-square');
    const off = await deps.channels.findByName(teamId, 'off-topic');
    assert.equal(town?.display_name, 'Town Square');
    assert.equal(off?.display_name, 'Off-Topic');
    for (const channel of [town, off]) {
      assert.equal(channel?.type, 'O');
      assert.equal(channel?.creator_id, creator);
      assert.equal(channel?.team_name, 'alpha');
      assert.ok(await deps.channelMembers.find(channel?.id ?? '', creator));
    }
    assert.equal(sink.of(Topics.channelsEvents, 'channel.created').length, 2);
    assert.equal(sink.of(Topics.channelsEvents, 'channel.member_added').length, 2);
  });

  it('when a team event is redelivered or two arrive at once, then no second channel or membership exists and nothing fails', async () => {
    const { deps, users, sink, deliver } = setup();
    const teamId = newId();
    const creator = newId();
    users.addTeam(teamId, 'beta');
    const id = newId();
    await Promise.all([deliver('team.created', { userId: creator, teamId }, id), deliver('team.created', { userId: creator, teamId }, id)]);
    await deliver('team.created', { userId: creator, teamId }, id);
    const channels = await deps.channels.listByTeam(teamId, ['O', 'P'], true, { page: 0, perPage: 100 });
    assert.deepEqual(channels.map((c) => c.name).sort(), ['off-topic', 'town-square']);
    for (const channel of channels) assert.equal((await deps.channelMembers.listByChannel(channel.id, { page: 0, perPage: 100 })).length, 1);
    assert.equal(sink.of(Topics.channelsEvents, 'channel.created').length, 2);
    assert.equal(sink.of(Topics.channelsEvents, 'channel.member_added').length, 2);
  });

  it('when team.member_added arrives, then the user joins both default channels, creating them if the team has none yet', async () => {
    const { deps, users, deliver } = setup();
    const teamId = newId();
    const creator = newId();
    const joiner = newId();
    users.addTeam(teamId, 'gamma');
    await deliver('team.created', { userId: creator, teamId });
    await deliver('team.member_added', { userId: joiner, teamId });
    const town = await deps.channels.findByName(teamId, 'town-square');
    assert.equal(town?.creator_id, creator, 'not recreated');
    assert.ok(await deps.channelMembers.find(town?.id ?? '', joiner));
    assert.ok(await deps.channelMembers.find((await deps.channels.findByName(teamId, 'off-topic'))?.id ?? '', joiner));

    const older = newId();
    users.addTeam(older, 'older');
    await deliver('team.member_added', { userId: joiner, teamId: older });
    assert.equal((await deps.channels.findByName(older, 'town-square'))?.creator_id, joiner);
  });

  it('when an archived default channel exists, then it is neither recreated nor joined', async () => {
    const { deps, users, deliver } = setup();
    const teamId = newId();
    users.addTeam(teamId, 'delta');
    await deliver('team.created', { userId: newId(), teamId });
    const off = await deps.channels.findByName(teamId, 'off-topic');
    await deps.channels.update(off?.id ?? '', { delete_at: 1 });
    const joiner = newId();
    await deliver('team.member_added', { userId: joiner, teamId });
    assert.equal(await deps.channelMembers.find(off?.id ?? '', joiner), undefined);
    assert.ok(await deps.channelMembers.find((await deps.channels.findByName(teamId, 'town-square'))?.id ?? '', joiner));
  });

  it('when other users events, malformed team events or events of unknown teams arrive, then they are skipped without a channel or an error', async () => {
    const { deps, sink, deliver } = setup();
    const teamId = newId();
    await deliver('user.created', { userId: newId() });
    await deliver('session.revoked', { userId: newId(), teamId });
    await deliver('team.created', { userId: 42, teamId });
    await deliver('team.created', { teamId });
    await deliver('team.created', { userId: newId(), teamId }); // FakeUsers knows no such team
    await deliver('something.new', 'not even an object');
    assert.equal(await deps.channels.findByName(teamId, 'town-square'), undefined);
    assert.equal(sink.published.length, 0);
  });

  it('when users-bots cannot be reached, then the handler throws so the bus redelivers', async () => {
    const { users, deliver } = setup();
    users.teamName = async () => {
      throw new Error('users-bots unavailable');
    };
    await assert.rejects(deliver('team.created', { userId: newId(), teamId: newId() }), /unavailable/);
  });

  it('when the app is started, then a team.created on the bus creates the default channels', async () => {
    const h = await postsHarness();
    try {
      const teamId = h.team();
      const creator = h.user({ teamId });
      await h.bus.publish(Topics.usersEvents, [{ key: teamId, value: envelope('team.created', { userId: creator.id, teamId }) }]);
      await until(async () => (await h.repositories.channels.findByName(teamId, 'off-topic')) !== undefined, 'off-topic created');
      const res = await h.request('GET', `/api/v4/teams/${teamId}/channels/name/town-square`, { as: creator });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().display_name, 'Town Square');
      assert.ok(await h.repositories.channels.findByName(teamId, 'off-topic'));
    } finally {
      await h.stop();
    }
  });
});
