import { badRequest } from '@switchyard/errors';
import { newId } from '@switchyard/ids';
import { Permissions } from '@switchyard/permissions';
import { requirePermission, requireUserOrBotAccess, type Actor } from '../authorization';
import type { AccessToken } from '../entities';
import { Errors } from '../errors';
import type { Deps } from '../ports';
import { hashToken, newToken } from '../secrets';

export interface CreateAccessTokenInput {
  readonly description: string;
  /** ms; 0 or absent = never. Ignored for bots: bot tokens never expire. */
  readonly expiresAt?: number;
}

export interface CreatedAccessToken {
  readonly token: AccessToken;
  /** The bearer secret, returned once and stored only as a hash. */
  readonly secret: string;
}

/**
 * `POST /users/{id}/tokens`: create_user_access_token plus access to that user (self, a bot the caller
 * manages, or edit_other_users). Humans need EnableUserAccessTokens (501); bots are exempt.
 */
export async function createAccessToken(deps: Deps, actor: Actor, userId: string, input: CreateAccessTokenInput): Promise<CreatedAccessToken> {
  requirePermission(actor, Permissions.createUserAccessToken);
  await requireUserOrBotAccess(deps, actor, userId);
  const user = await deps.users.findById(userId);
  if (!user) throw Errors.userNotFound();
  if (!user.isBot && !deps.liveConfig.current().ServiceSettings.EnableUserAccessTokens) throw Errors.tokensDisabled();
  if ([...input.description].length > 255) {
    throw badRequest('model.user_access_token.is_valid.description.app_error', 'Invalid description, must be 255 or less characters.');
  }
  const now = deps.clock.now();
  const expiresAt = input.expiresAt ?? 0;
  if (expiresAt < 0 || (expiresAt !== 0 && expiresAt <= now && !user.isBot)) {
    throw badRequest('model.user_access_token.is_valid.expires_at.app_error', 'Invalid expiry time: must be 0 (never) or in the future.');
  }
  const secret = newToken();
  const token: AccessToken = {
    id: newId(),
    tokenHash: hashToken(secret),
    userId,
    description: input.description,
    isActive: true,
    expiresAt: user.isBot ? 0 : expiresAt,
    createAt: now,
  };
  await deps.tokens.insert(token);
  return { token, secret };
}
