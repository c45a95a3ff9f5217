import { badRequest } from '@switchyard/errors';
import { configRangeProblem, type SystemConfig } from '@switchyard/system-config';
import { Errors } from '../errors';
import type { Deps } from '../ports';

/**
 * Checks a candidate config against the current one, then stores it, replaces the live view and
 * publishes `config.updated` (other services apply it without restart). An empty
 * IntegrationSigningSecret keeps the current one (a secret is rotated by setting a new value).
 */
export async function saveConfig(deps: Deps, current: Readonly<SystemConfig>, next: SystemConfig): Promise<SystemConfig> {
  if (current.ServiceSettings.SiteURL !== '' && next.ServiceSettings.SiteURL === '') throw Errors.clearSiteUrl();
  if (next.ServiceSettings.IntegrationSigningSecret === '') {
    next.ServiceSettings.IntegrationSigningSecret = current.ServiceSettings.IntegrationSigningSecret;
  }
  const problem = configRangeProblem(next);
  if (problem) throw badRequest(problem.id, problem.message);
  await deps.configStore.save(next);
  deps.liveConfig.replace(next);
  await deps.events.configUpdated(next);
  return next;
}
