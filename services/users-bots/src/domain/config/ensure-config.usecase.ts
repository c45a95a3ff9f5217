import { defaultSystemConfig, withDefaults, type SystemConfig } from '@switchyard/system-config';
import type { Deps } from '../ports';
import { newRandomString, newSigningSecret } from '../secrets';

/**
 * At start: load the stored config (filling keys added since), generate IntegrationSigningSecret and
 * FileSettings.PublicLinkSalt (32 random characters, as the reference) when empty, set SiteURL to `defaultSiteUrl` when it is empty and one is given (the embedded runtime: its
 * listen address), store it if anything changed, make it live and publish it.
 */
export async function ensureConfig(deps: Deps, defaultSiteUrl?: string): Promise<SystemConfig> {
  const stored = await deps.configStore.load();
  const config = stored ? withDefaults(stored) : defaultSystemConfig();
  let changed = stored === undefined || JSON.stringify(config) !== JSON.stringify(stored);
  if (config.ServiceSettings.IntegrationSigningSecret === '') {
    config.ServiceSettings.IntegrationSigningSecret = newSigningSecret();
    changed = true;
  }
  if (config.FileSettings.PublicLinkSalt === '') {
    config.FileSettings.PublicLinkSalt = newRandomString(32);
    changed = true;
  }
  if (config.ServiceSettings.SiteURL === '' && defaultSiteUrl) {
    config.ServiceSettings.SiteURL = defaultSiteUrl;
    changed = true;
  }
  if (changed) await deps.configStore.save(config);
  deps.liveConfig.replace(config);
  await deps.events.configUpdated(config);
  return config;
}
