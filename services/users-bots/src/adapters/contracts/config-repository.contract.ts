import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultSystemConfig } from '@switchyard/system-config';
import type { ConfigRepository } from '../../domain/ports';
import type { Factory } from './fixtures';

export function configRepositoryContract(name: string, make: Factory<ConfigRepository>): void {
  describe(`ConfigRepository contract: ${name}`, () => {
    it('when nothing was saved, then load is undefined; after saves, the latest document comes back', async () => {
      const repo = await make();
      assert.equal(await repo.load(), undefined);
      const config = defaultSystemConfig();
      config.ServiceSettings.EnableBotAccountCreation = true;
      await repo.save(config);
      config.ServiceSettings.SiteURL = 'mutated after save';
      assert.deepEqual((await repo.load())?.ServiceSettings, { ...config.ServiceSettings, SiteURL: '' });
      config.RateLimitSettings.PerSec = 3;
      await repo.save(config);
      assert.equal(((await repo.load())?.RateLimitSettings as { PerSec: number }).PerSec, 3);
    });
  });
}
