import { Permissions } from '@switchyard/permissions';
import { requirePermission, type Actor } from '../authorization';
import type { AccessToken } from '../entities';
import type { Deps, Page } from '../ports';

/** `GET /users/tokens` (manage_system): every token, paged. */
export async function listAllAccessTokens(deps: Deps, actor: Actor, page: Page): Promise<AccessToken[]> {
  requirePermission(actor, Permissions.manageSystem);
  return deps.tokens.listAll(page);
}
