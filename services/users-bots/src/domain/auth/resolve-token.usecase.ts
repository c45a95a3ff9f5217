import type { ResolvedSession } from '@switchyard/contracts';
import { commonErrors } from '@switchyard/errors';
import { newId } from '@switchyard/ids';
import type { AccessToken, Session, User } from '../entities';
import { isDuplicateKeyError } from '../errors';
import type { Deps } from '../ports';
import { hashToken, newToken } from '../secrets';

const MAX_TOKEN_LENGTH = 128;

function resolved(session: Session, user: User): ResolvedSession {
  return {
    userId: user.id,
    sessionId: session.id,
    roles: user.roles,
    isBot: user.isBot,
    sessionType: session.type,
    ...(session.tokenId !== '' ? { tokenId: session.tokenId } : {}),
    csrfToken: session.csrfToken,
    expiresAt: session.expiresAt,
  };
}

/** Why a PAT (or its session) is refused; undefined when it is usable now. */
function tokenProblem(deps: Deps, token: AccessToken | undefined, user: User | undefined, now: number): string | undefined {
  if (!token) return 'token not found';
  if (!token.isActive) return 'token disabled';
  if (token.expiresAt !== 0 && token.expiresAt <= now) return 'token expired';
  if (!user || user.deleteAt > 0) return 'user inactive';
  if (!user.isBot && !deps.liveConfig.current().ServiceSettings.EnableUserAccessTokens) return 'UserAccessToken';
  return undefined;
}

/**
 * `POST /internal/v1/auth/resolve`: a bearer token → its session. A session token must be unexpired and
 * its user active. Otherwise the token may be a personal access token or bot token: when active,
 * unexpired, its user active, and (for humans) EnableUserAccessTokens on, a persistent session of type
 * UserAccessToken is created on first use and reused afterwards. Anything else: 401 session_expired.
 */
export async function resolveToken(deps: Deps, token: string): Promise<ResolvedSession> {
  if (token === '' || token.length > MAX_TOKEN_LENGTH) throw commonErrors.sessionExpired();
  const now = deps.clock.now();
  const tokenHash = hashToken(token);
  const session = await deps.sessions.findByTokenHash(tokenHash);
  if (session) return checkSession(deps, session, now);

  const accessToken = await deps.tokens.findByTokenHash(tokenHash);
  const user = accessToken ? await deps.users.findById(accessToken.userId) : undefined;
  const problem = tokenProblem(deps, accessToken, user, now);
  if (problem !== undefined || !accessToken || !user) throw commonErrors.sessionExpired(problem);
  const created: Session = {
    id: newId(),
    tokenHash,
    userId: user.id,
    type: 'UserAccessToken',
    tokenId: accessToken.id,
    csrfToken: newToken(),
    isBot: user.isBot,
    deviceId: '',
    createAt: now,
    expiresAt: user.isBot ? 0 : accessToken.expiresAt,
    lastActivityAt: now,
  };
  try {
    await deps.sessions.insert(created);
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    const raced = await deps.sessions.findByTokenHash(tokenHash);
    if (!raced) throw commonErrors.sessionExpired();
    return checkSession(deps, raced, now);
  }
  return resolved(created, user);
}

async function checkSession(deps: Deps, session: Session, now: number): Promise<ResolvedSession> {
  if (session.expiresAt !== 0 && session.expiresAt <= now) {
    await deps.sessions.deleteById(session.id);
    throw commonErrors.sessionExpired('session expired');
  }
  const user = await deps.users.findById(session.userId);
  if (!user || user.deleteAt > 0) throw commonErrors.sessionExpired('user inactive');
  if (session.type === 'UserAccessToken') {
    const accessToken = await deps.tokens.findById(session.tokenId);
    const problem = tokenProblem(deps, accessToken, user, now);
    if (problem !== undefined) {
      if (problem !== 'UserAccessToken') await deps.sessions.deleteById(session.id);
      throw commonErrors.sessionExpired(problem);
    }
  }
  return resolved(session, user);
}
