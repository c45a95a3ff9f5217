import { newId } from '@switchyard/ids';
import { isAdmin, type Actor } from '../authorization';
import { newUser, type User } from '../entities';
import { Errors, isDuplicateKeyError } from '../errors';
import type { Deps } from '../ports';
import { assertValidEmail, assertValidPassword, assertValidProfile, assertValidUsername } from '../rules/user-rules';

export interface CreateUserInput {
  readonly username: string;
  readonly email: string;
  readonly password?: string;
  readonly nickname?: string;
  readonly firstName?: string;
  readonly lastName?: string;
  readonly position?: string;
  readonly locale?: string;
  readonly props?: Readonly<Record<string, string>>;
  readonly notifyProps?: Readonly<Record<string, string>>;
  readonly timezone?: Readonly<Record<string, string>>;
  /** Admins only (SanitizeInput drops them for everyone else). */
  readonly authService?: string;
  readonly authData?: string;
  readonly emailVerified?: boolean;
}

/** Maps a unique-key violation from the store to the reference's 400. */
export function duplicateUserError(error: unknown): unknown {
  if (!isDuplicateKeyError(error)) return error;
  return error.key === 'email' ? Errors.emailExists() : Errors.usernameExists();
}

/**
 * `POST /users`. An admin session creates users freely; otherwise sign-up needs EnableSignUpWithEmail
 * and EnableUserCreation (501), and after the first user EnableOpenServer (403). The first human user
 * (deactivated ones counted, bots not) becomes `system_admin system_user`.
 */
export async function createUser(deps: Deps, actor: Actor | undefined, input: CreateUserInput): Promise<User> {
  const config = deps.liveConfig.current();
  const admin = isAdmin(actor);
  const humans = await deps.users.countHumans();
  if (!admin) {
    if (!config.EmailSettings.EnableSignUpWithEmail || !config.TeamSettings.EnableUserCreation) throw Errors.signupDisabled();
    if (humans > 0 && !config.TeamSettings.EnableOpenServer) throw Errors.noOpenServer();
  }

  const username = input.username.toLowerCase();
  const email = input.email.trim().toLowerCase();
  assertValidUsername(username);
  assertValidEmail(email);
  assertValidProfile(input);
  const authService = admin ? (input.authService ?? '') : '';
  const password = input.password ?? '';
  if (authService === '') assertValidPassword(password, config);

  if (await deps.users.findByUsername(username)) throw Errors.usernameExists();
  if (await deps.users.findByEmail(email)) throw Errors.emailExists();

  const now = deps.clock.now();
  const user = newUser({
    id: newId(),
    username,
    email,
    createAt: now,
    emailVerified: admin ? (input.emailVerified ?? false) : false,
    passwordHash: authService === '' ? await deps.passwords.hash(password) : '',
    lastPasswordUpdate: authService === '' ? now : 0,
    authService,
    authData: admin && input.authData !== undefined ? input.authData : null,
    nickname: input.nickname ?? '',
    firstName: input.firstName ?? '',
    lastName: input.lastName ?? '',
    position: input.position ?? '',
    locale: input.locale || 'en',
    roles: humans === 0 ? 'system_admin system_user' : 'system_user',
    ...(input.props ? { props: { ...input.props } } : {}),
    ...(input.notifyProps ? { notifyProps: { ...newUser({ id: '', username: '', email: '', createAt: 0 }).notifyProps, ...input.notifyProps } } : {}),
    ...(input.timezone ? { timezone: { ...input.timezone } } : {}),
  });
  try {
    await deps.users.insert(user);
  } catch (error) {
    throw duplicateUserError(error);
  }
  await deps.events.users('user.created', { userId: user.id, username: user.username, isBot: false });
  return user;
}
