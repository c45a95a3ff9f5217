import { Permissions } from '@switchyard/permissions';
import { requirePermission, requireUserOrBotAccess, type Actor } from '../authorization';
import type { AccessToken } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';

/** `GET /users/tokens/{token_id}`: read_user_access_token plus access to the token's user or bot. */
export async function getAccessToken(deps: Deps, actor: Actor, tokenId: string): Promise<AccessToken> {
  requirePermission(actor, Permissions.readUserAccessToken);
  const token = await deps.tokens.findById(tokenId);
  if (!token) throw Errors.tokenNotFound();
  await requireUserOrBotAccess(deps, actor, token.userId);
  return token;
}
