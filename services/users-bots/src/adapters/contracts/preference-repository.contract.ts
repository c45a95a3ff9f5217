import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { PreferenceRepository } from '../../domain/preferences/preference-ports';
import type { Factory } from './fixtures';

export function preferenceRepositoryContract(name: string, make: Factory<PreferenceRepository>): void {
  describe(`PreferenceRepository contract: ${name}`, () => {
    it('when preferences are saved, then one per (user, category, name), replaced on save, listed by category then name', async () => {
      const repo = await make();
      const u = newId();
      await repo.save([
        { user_id: u, category: 'display_settings', name: 'use_military_time', value: 'false' },
        { user_id: u, category: 'advanced_settings', name: 'send_on_ctrl_enter', value: 'true' },
        { user_id: u, category: 'display_settings', name: 'collapsed_reply_threads', value: 'on' },
        { user_id: newId(), category: 'display_settings', name: 'collapsed_reply_threads', value: 'off' },
      ]);
      await repo.save([{ user_id: u, category: 'display_settings', name: 'collapsed_reply_threads', value: 'off' }]);
      assert.deepEqual(
        (await repo.listByUser(u)).map((p) => `${p.category}/${p.name}=${p.value}`),
        ['advanced_settings/send_on_ctrl_enter=true', 'display_settings/collapsed_reply_threads=off', 'display_settings/use_military_time=false'],
      );
      assert.deepEqual((await repo.listByCategory(u, 'display_settings')).map((p) => p.name), ['collapsed_reply_threads', 'use_military_time']);
      assert.deepEqual(await repo.find(u, 'advanced_settings', 'send_on_ctrl_enter'), { user_id: u, category: 'advanced_settings', name: 'send_on_ctrl_enter', value: 'true' });
      assert.equal(await repo.find(u, 'advanced_settings', 'nope'), undefined);
    });

    it('when one is deleted, then it is gone and a second delete is false; values of many users are read at once', async () => {
      const repo = await make();
      const [a, b, c] = [newId(), newId(), newId()];
      await repo.save([
        { user_id: a, category: 'display_settings', name: 'collapsed_reply_threads', value: 'on' },
        { user_id: b, category: 'display_settings', name: 'collapsed_reply_threads', value: 'off' },
        { user_id: c, category: 'display_settings', name: 'other', value: 'x' },
      ]);
      assert.deepEqual([...(await repo.valuesOf([a, b, c, newId()], 'display_settings', 'collapsed_reply_threads'))].sort(), [[a, 'on'], [b, 'off']].sort());
      assert.equal(await repo.delete(a, 'display_settings', 'collapsed_reply_threads'), true);
      assert.equal(await repo.delete(a, 'display_settings', 'collapsed_reply_threads'), false);
      assert.deepEqual(await repo.listByUser(a), []);
    });
  });
}
