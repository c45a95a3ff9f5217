import { maskSecrets } from '@switchyard/logger';

/**
 * A request path safe to log: webhook keys (`/hooks/{key}`, `/api/v4/hooks/incoming/{key}`,
 * `/hooks/commands/{token}`) cut after their first six characters, tokens in the query masked. The logger
 * masks the same things in every line anyway; this keeps paths short in lines built by hand.
 */
export function loggablePath(path: string): string {
  return maskSecrets(path);
}
