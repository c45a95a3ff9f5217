import { Permissions } from '@switchyard/permissions';
import { requirePermission, requireUserOrBotAccess, type Actor } from '../authorization';
import { Errors } from '../errors';
import type { Deps } from '../ports';

/**
 * `POST /users/tokens/disable|enable {token_id}` (revoke_user_access_token for both). Disabling also
 * revokes the token's session and publishes `token.disabled`.
 */
export async function setAccessTokenActive(deps: Deps, actor: Actor, tokenId: string, active: boolean): Promise<void> {
  requirePermission(actor, Permissions.revokeUserAccessToken);
  const token = await deps.tokens.findById(tokenId);
  if (!token) throw Errors.tokenNotFound();
  await requireUserOrBotAccess(deps, actor, token.userId);
  await deps.tokens.setActive(token.id, active);
  if (active) return;
  const sessionIds = await deps.sessions.deleteByTokenId(token.id);
  await deps.events.users('token.disabled', { userId: token.userId, tokenIds: [token.id], sessionIds });
}
