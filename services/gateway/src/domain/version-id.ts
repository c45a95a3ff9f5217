import { createHash } from 'node:crypto';
import { SERVER_VERSION } from '@switchyard/contracts';
import { sanitizeConfig, type SystemConfig } from '@switchyard/system-config';

export { SERVER_VERSION };

/** `X-Version-Id`: `{version}.{build}.{configHash}.{licensed}`; the hash changes with the config. */
export function versionId(build: string, config: SystemConfig): string {
  const hash = createHash('sha256').update(JSON.stringify(sanitizeConfig(config))).digest('hex').slice(0, 32);
  return `${SERVER_VERSION}.${build}.${hash}.false`;
}
