import { newId } from '@switchyard/ids';
import { newUser, type AccessToken, type Bot, type Session, type Team, type TeamMember, type User } from '../../domain/entities';
import { isDuplicateKeyError } from '../../domain/errors';

/** Builders for contract tests: unique values per call so suites can share a database. */
let counter = 0;
const unique = (): string => `${Date.now().toString(36)}${(counter += 1).toString(36)}`;

export type Factory<T> = () => Promise<T> | T;

export function aUser(overrides: Partial<User> = {}): User {
  const name = `u${unique()}`;
  return newUser({ id: newId(), username: name, email: `${name}@example.com`, createAt: 1_000 + counter, ...overrides });
}

export function aSession(overrides: Partial<Session> = {}): Session {
  return {
    id: newId(), tokenHash: `hash-${unique()}`, userId: newId(), type: 'session', tokenId: '', csrfToken: newId(), isBot: false,
    deviceId: '', createAt: 1_000 + counter, expiresAt: 0, lastActivityAt: 0, ...overrides,
  };
}

export function aToken(overrides: Partial<AccessToken> = {}): AccessToken {
  return { id: newId(), tokenHash: `hash-${unique()}`, userId: newId(), description: 'd', isActive: true, expiresAt: 0, createAt: 1_000 + counter, ...overrides };
}

export function aBot(overrides: Partial<Bot> = {}): Bot {
  return { id: newId(), displayName: 'Bot', description: '', ownerId: newId(), createAt: 1_000 + counter, updateAt: 1_000, deleteAt: 0, lastIconUpdate: 0, ...overrides };
}

export function aTeam(overrides: Partial<Team> = {}): Team {
  return {
    id: newId(), name: `t${unique()}`, displayName: 'Team', description: '', email: '', type: 'O', companyName: '', allowedDomains: '',
    inviteId: newId(), allowOpenInvite: false, createAt: 1_000 + counter, updateAt: 1_000, deleteAt: 0, lastTeamIconUpdate: 0, ...overrides,
  };
}

export function aMember(overrides: Partial<TeamMember> = {}): TeamMember {
  return {
    teamId: newId(), userId: newId(), schemeGuest: false, schemeUser: true, schemeAdmin: false, explicitRoles: '',
    createAt: 1_000 + (counter += 1), deleteAt: 0, ...overrides,
  };
}

/** Asserts that `action` rejects with a DuplicateKeyError on `key`. */
export async function rejectsDuplicate(action: () => Promise<unknown>, key: string): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (isDuplicateKeyError(error) && error.key === key) return;
    throw new Error(`expected DuplicateKeyError(${key}), got ${String(error)}`);
  }
  throw new Error(`expected DuplicateKeyError(${key}), but it resolved`);
}
