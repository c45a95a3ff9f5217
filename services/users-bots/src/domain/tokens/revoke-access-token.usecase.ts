import { Permissions } from '@switchyard/permissions';
import { requirePermission, requireUserOrBotAccess, type Actor } from '../authorization';
import { Errors } from '../errors';
import type { Deps } from '../ports';

/** `POST /users/tokens/revoke {token_id}`: deletes the token and its session; `token.revoked`. */
export async function revokeAccessToken(deps: Deps, actor: Actor, tokenId: string): Promise<void> {
  requirePermission(actor, Permissions.revokeUserAccessToken);
  const token = await deps.tokens.findById(tokenId);
  if (!token) throw Errors.tokenNotFound();
  await requireUserOrBotAccess(deps, actor, token.userId);
  await deps.tokens.deleteById(token.id);
  const sessionIds = await deps.sessions.deleteByTokenId(token.id);
  await deps.events.users('token.revoked', { userId: token.userId, tokenIds: [token.id], sessionIds });
}
