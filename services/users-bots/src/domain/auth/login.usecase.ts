import { badRequest, unauthorized, type AppError } from '@switchyard/errors';
import { newId } from '@switchyard/ids';
import type { SystemConfig } from '@switchyard/system-config';
import type { Session, User } from '../entities';
import type { Deps, PasswordHasher } from '../ports';
import { hashToken, newToken } from '../secrets';


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

const dummyHashes = new WeakMap<PasswordHasher, Promise<string>>();

/** A hash of nothing anyone knows, made once per hasher, so a login without a stored hash costs a real verify. */
function dummyHash(hasher: PasswordHasher): Promise<string> {
  let hash = dummyHashes.get(hasher);
  if (!hash) {
    hash = hasher.hash(newToken());
    dummyHashes.set(hasher, hash);
  }
  return hash;
}

/** Verifies against the stored hash, or against the dummy when there is none (same cost, always false). */
async function verifyPassword(deps: Deps, password: string, stored: string | undefined): Promise<boolean> {
  if (stored === undefined || stored === '') {
    await deps.passwords.verify(password, await dummyHash(deps.passwords));
    return false;
  }
  return deps.passwords.verify(password, stored);
}

function accountLocked(): AppError {
  return unauthorized('api.user.check_user_login_attempts.too_many.app_error', 'Your account is locked because of too many failed password attempts. Please reset your password.');
}

/**
 * `POST /users/login`. Unknown users and wrong passwords share one masked 401 and cost the same time (an
 * unknown login verifies against a dummy hash); bots, deactivated users and locked accounts get their own
 * ids. Every password check first takes one of the `MaximumLoginAttempts` attempts atomically (so
 * parallel guesses cannot all be checked); a right password gives it back by resetting the count to 0.
 * Success stores a session (token hashed) that expires after SessionLengthWebInHours.
 */
export async function login(deps: Deps, input: LoginInput): Promise<LoginResult> {
  const config = deps.liveConfig.current();
  if (input.password === '') throw badRequest('api.user.login.blank_pwd.app_error', 'Password field must not be blank');
  const user = await findForLogin(deps, input, config);
  if (!user) {
    await verifyPassword(deps, input.password, undefined);
    throw invalidCredentials(config);
  }
  if (user.isBot) throw unauthorized('api.user.login.bot_login_forbidden.app_error', 'Bot login is forbidden.');
  if (!(await deps.users.reserveLoginAttempt(user.id, config.ServiceSettings.MaximumLoginAttempts))) throw accountLocked();
  if (!(await verifyPassword(deps, input.password, user.passwordHash))) throw invalidCredentials(config);
  if (user.deleteAt > 0) {
    await deps.users.update(user.id, { failedAttempts: 0 });
    throw unauthorized('api.user.login.inactive.app_error', 'Login failed because your account has been deactivated.  Please contact an administrator.');
  }

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
