import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { ChannelRepository } from '../../domain/ports';
import { aChannel, rejectsDuplicate, type Factory } from './fixtures';

export function channelRepositoryContract(name: string, make: Factory<ChannelRepository>): void {
  describe(`ChannelRepository contract: ${name}`, () => {
    it('when a channel is inserted, then it is found by id, ids and team + name; id and (team, name) are unique', async () => {
      const repo = await make();
      const channel = aChannel();
      await repo.insert(channel);
      assert.deepEqual(await repo.findById(channel.id), channel);
      assert.deepEqual(await repo.findByIds([channel.id, newId()]), [channel]);
      assert.deepEqual(await repo.findByName(channel.team_id, channel.name), channel);
      assert.equal(await repo.findByName(newId(), channel.name), undefined);
      await rejectsDuplicate(() => repo.insert({ ...channel, name: 'other' }), 'id');
      await rejectsDuplicate(() => repo.insert(aChannel({ team_id: channel.team_id, name: channel.name })), 'name');
      await repo.insert(aChannel({ name: channel.name }));
    });

    it('when scopes are read, then each known channel\'s id, team, name, type and archive state, unknown ids skipped', async () => {
      const repo = await make();
      const open = aChannel({ type: 'O' });
      const archived = aChannel({ type: 'P', delete_at: 5 });
      const direct = aChannel({ type: 'D', team_id: '' });
      for (const c of [open, archived, direct]) await repo.insert(c);
      const scopeOf = (c: typeof open) => ({ id: c.id, team_id: c.team_id, name: c.name, type: c.type, delete_at: c.delete_at });
      const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
      const found = await repo.findScopes([direct.id, newId(), open.id, archived.id]);
      assert.deepEqual([...found].sort(byId), [open, archived, direct].map(scopeOf).sort(byId));
      assert.deepEqual(await repo.findScopes([]), []);
    });

    it('when channels are listed across teams, then team channels of the asked types and archive state, by display name, bounded', async () => {
      const repo = await make();
      const [t1, t2] = [newId(), newId()];
      const tag = newId().slice(0, 8);
      const a = aChannel({ team_id: t1, type: 'O', display_name: `${tag} a` });
      const b = aChannel({ team_id: t2, type: 'P', display_name: `${tag} b` });
      const gone = aChannel({ team_id: t2, type: 'O', display_name: `${tag} c`, delete_at: 9 });
      const direct = aChannel({ team_id: '', type: 'D', display_name: `${tag} d` });
      for (const c of [gone, b, direct, a]) await repo.insert(c);
      const ids = async (filter: Parameters<ChannelRepository['listAcrossTeams']>[0], limit = 100): Promise<string[]> =>
        (await repo.listAcrossTeams({ ...filter, teamIds: filter.teamIds ?? [t1, t2] }, limit)).map((c) => c.id);
      assert.deepEqual(await ids({ types: ['O', 'P'], archived: 'live' }), [a.id, b.id]);
      assert.deepEqual(await ids({ types: ['O', 'P'], archived: 'all' }), [a.id, b.id, gone.id]);
      assert.deepEqual(await ids({ types: ['O', 'P'], archived: 'archived' }), [gone.id]);
      assert.deepEqual(await ids({ types: ['P'], archived: 'all' }), [b.id]);
      assert.deepEqual(await ids({ types: ['O', 'P', 'D'], archived: 'all', teamIds: [t2] }), [b.id, gone.id]);
      assert.deepEqual(await ids({ types: ['O', 'P'], archived: 'all' }, 1), [a.id]);
      assert.deepEqual(await repo.listAcrossTeams({ types: ['O'], archived: 'all', teamIds: [] }, 10), []);
      const everywhere = (await repo.listAcrossTeams({ types: ['O', 'P', 'D', 'G'], archived: 'all' }, 10_000)).map((c) => c.id);
      assert.ok(everywhere.includes(a.id) && !everywhere.includes(direct.id), 'every team, never a DM');
    });

    it('when direct channels share the empty team id, then their names are still unique', async () => {
      const repo = await make();
      const dm = aChannel({ team_id: '', type: 'D', name: `${newId()}__${newId()}` });
      await repo.insert(dm);
      assert.deepEqual(await repo.findByName('', dm.name), dm);
      await rejectsDuplicate(() => repo.insert(aChannel({ team_id: '', type: 'D', name: dm.name })), 'name');
    });

    it('when a channel is updated, then the fields change; unknown ids answer undefined', async () => {
      const repo = await make();
      const channel = aChannel();
      await repo.insert(channel);
      const updated = await repo.update(channel.id, { delete_at: 5, update_at: 6 });
      assert.deepEqual(updated, { ...channel, delete_at: 5, update_at: 6 });
      assert.deepEqual(await repo.findById(channel.id), updated);
      assert.equal(await repo.update(newId(), { delete_at: 1 }), undefined);
    });

    it('when a team\'s channels are listed, then only the asked types, archived ones on request, by display name, paged', async () => {
      const repo = await make();
      const teamId = newId();
      const b = aChannel({ team_id: teamId, display_name: 'B' });
      const a = aChannel({ team_id: teamId, display_name: 'A' });
      const p = aChannel({ team_id: teamId, display_name: 'C', type: 'P' });
      const gone = aChannel({ team_id: teamId, display_name: 'D', delete_at: 9 });
      for (const c of [b, a, p, gone, aChannel()]) await repo.insert(c);
      assert.deepEqual((await repo.listByTeam(teamId, ['O'], false, { page: 0, perPage: 10 })).map((c) => c.id), [a.id, b.id]);
      assert.deepEqual((await repo.listByTeam(teamId, ['O'], true, { page: 0, perPage: 10 })).map((c) => c.id), [a.id, b.id, gone.id]);
      assert.deepEqual((await repo.listByTeam(teamId, ['O', 'P'], false, { page: 1, perPage: 2 })).map((c) => c.id), [p.id]);
      assert.deepEqual(await repo.listByTeam(teamId, ['O'], false, { page: 0, perPage: 0 }), []);
    });

    it('when posts are recorded, then counts grow and last_post_at never goes back', async () => {
      const repo = await make();
      const channel = aChannel({ last_post_at: 100, last_root_post_at: 100 });
      await repo.insert(channel);
      await repo.recordPost(channel.id, 200, true);
      await repo.recordPost(channel.id, 150, false);
      const after = await repo.findById(channel.id);
      assert.equal(after?.total_msg_count, 2);
      assert.equal(after?.total_msg_count_root, 1);
      assert.equal(after?.last_post_at, 200);
      assert.equal(after?.last_root_post_at, 200);
      await repo.recordPost(newId(), 1, true);
    });

    it('when several posts are counted at once, then the counters move as if counted one by one (latest times kept)', async () => {
      const repo = await make();
      const channel = aChannel({ last_post_at: 100, last_root_post_at: 100 });
      await repo.insert(channel);
      await repo.recordPosts(channel.id, { posts: 3, roots: 2, lastPostAt: 300, lastRootPostAt: 250 });
      await repo.recordPosts(channel.id, { posts: 2, roots: 0, lastPostAt: 400, lastRootPostAt: 0 });
      await repo.recordPosts(channel.id, { posts: 1, roots: 1, lastPostAt: 50, lastRootPostAt: 50 });
      const after = await repo.findById(channel.id);
      assert.equal(after?.total_msg_count, 6);
      assert.equal(after?.total_msg_count_root, 3);
      assert.equal(after?.last_post_at, 400);
      assert.equal(after?.last_root_post_at, 250);
      await repo.recordPosts(newId(), { posts: 1, roots: 1, lastPostAt: 1, lastRootPostAt: 1 });
    });
  });
}
