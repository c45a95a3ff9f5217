import { Permissions } from '@switchyard/permissions';
import { requirePermission, requireUserOrBotAccess, type Actor } from '../authorization';
import type { AccessToken } from '../entities';
import type { Deps, Page } from '../ports';

/** `GET /users/{id}/tokens`: read_user_access_token plus access to that user or bot. */
export async function listUserAccessTokens(deps: Deps, actor: Actor, userId: string, page: Page): Promise<AccessToken[]> {
  requirePermission(actor, Permissions.readUserAccessToken);
  await requireUserOrBotAccess(deps, actor, userId);
  return deps.tokens.listByUser(userId, page);
}
