import { badRequest } from '@switchyard/errors';
import { configRangeProblem, type SystemConfig } from '@switchyard/system-config';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { newRandomString } from '../secrets';
import { keepDocumentValues } from './file-overrides';

/**
 * Checks a candidate config against the current one, then stores it, replaces the live view and
 * publishes `config.updated` (other services apply it without restart). An empty
 * IntegrationSigningSecret keeps the current one (a secret is rotated by setting a new value); an empty
 * FileSettings.PublicLinkSalt gets 32 new random characters.
 */
export async function saveConfig(deps: Deps, current: Readonly<SystemConfig>, candidate: SystemConfig): Promise<SystemConfig> {
  const next = keepDocumentValues(candidate, current, (await deps.fileSettingsOverrides?.current()) ?? {});
  if (current.ServiceSettings.SiteURL !== '' && next.ServiceSettings.SiteURL === '') throw Errors.clearSiteUrl();
  if (next.ServiceSettings.IntegrationSigningSecret === '') {
    next.ServiceSettings.IntegrationSigningSecret = current.ServiceSettings.IntegrationSigningSecret;
  }
  // As the reference's SetDefaults on an update: an emptied public-link salt is a new one (old links stop working).
  if (next.FileSettings.PublicLinkSalt === '') next.FileSettings.PublicLinkSalt = newRandomString(32);
  const problem = configRangeProblem(next);
  if (problem) throw badRequest(problem.id, problem.message);
  await deps.configStore.save(next);
  deps.liveConfig.replace(next);
  await deps.events.configUpdated(next);
  return next;
}
