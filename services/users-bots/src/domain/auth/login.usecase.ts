import { unauthorized, type AppError } from '@switchyard/errors';
import { newId } from '@switchyard/ids';
import type { SystemConfig } from '@switchyard/system-config';
import type { Session, User } from '../entities';
import type { Deps } from '../ports';
import { hashToken, newToken } from '../secrets';

export const MAXIMUM_LOGIN_ATTEMPTS = 10;

export interface LoginInput {
  readonly id?: string;
  readonly loginId?: string;
  readonly password: string;
  readonly deviceId?: string;
}

export interface LoginResult {
  readonly user: User;
  readonly session: Session;
  /** The bearer token (shown once: `Token` header and MMAUTHTOKEN cookie). */
  readonly token: string;
}

/** The masked failure, named after the sign-in methods that are on. */
export function invalidCredentials(config: Readonly<SystemConfig>): AppError {
  const { EnableSignInWithEmail: email, EnableSignInWithUsername: username } = config.EmailSettings;
  const suffix = email && username ? 'email_username' : email ? 'email' : username ? 'username' : 'sso';
  return unauthorized(`api.user.login.invalid_credentials_${suffix}`, 'Enter a valid email or username and/or password.');
}

async function findForLogin(deps: Deps, input: LoginInput, config: Readonly<SystemConfig>): Promise<User | undefined> {
  if (input.id) return deps.users.findById(input.id);
  const loginId = (input.loginId ?? '').trim().toLowerCase();
  if (loginId === '') return undefined;
  if (config.EmailSettings.EnableSignInWithUsername) {
    const byName = await deps.users.findByUsername(loginId);
    if (byName) return byName;
  }
  if (config.EmailSettings.EnableSignInWithEmail) return deps.users.findByEmail(loginId);
  return undefined;
}

/**
 * `POST /users/login`. Unknown users and wrong passwords share one masked 401; bots, deactivated users
 * and locked accounts get their own ids. Success stores a session (token hashed) that expires after
 * SessionLengthWebInHours.
 */
export async function login(deps: Deps, input: LoginInput): Promise<LoginResult> {
  const config = deps.liveConfig.current();
  if (input.password === '') throw unauthorized('api.user.login.blank_pwd.app_error', 'Password field must not be blank');
  const user = await findForLogin(deps, input, config);
  if (!user) throw invalidCredentials(config);
  if (user.isBot) throw unauthorized('api.user.login.bot_login_forbidden.app_error', 'Bot login is forbidden.');
  if (user.failedAttempts >= MAXIMUM_LOGIN_ATTEMPTS) {
    throw unauthorized('api.user.check_user_login_attempts.too_many.app_error', 'Your account is locked because of too many failed password attempts. Please reset your password.');
  }
  if (!(await deps.passwords.verify(input.password, user.passwordHash))) {
    await deps.users.update(user.id, { failedAttempts: user.failedAttempts + 1 });
    throw invalidCredentials(config);
  }
  if (user.deleteAt > 0) throw unauthorized('api.user.login.inactive.app_error', 'Login failed because your account has been deactivated.  Please contact an administrator.');

  const now = deps.clock.now();
  const token = newToken();
  const session: Session = {
    id: newId(),
    tokenHash: hashToken(token),
    userId: user.id,
    type: 'session',
    tokenId: '',
    csrfToken: newToken(),
    isBot: false,
    deviceId: input.deviceId ?? '',
    createAt: now,
    expiresAt: now + config.ServiceSettings.SessionLengthWebInHours * 3_600_000,
    lastActivityAt: now,
  };
  await deps.sessions.insert(session);
  const updated = await deps.users.update(user.id, { failedAttempts: 0, lastLogin: now, lastActivityAt: now });
  return { user: updated ?? user, session, token };
}
