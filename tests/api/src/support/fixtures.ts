import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Client4 } from '@mattermost/client';
import type { Bot } from '@mattermost/types/bots';
import type { Team } from '@mattermost/types/teams';
import type { UserProfile } from '@mattermost/types/users';
import { newClient } from './client';
import { raw } from './http';

export const ADMIN_USERNAME = 'sysadmin';
export const ADMIN_PASSWORD = 'Sys-admin-pass1';
export const ADMIN_EMAIL = 'sysadmin@example.com';
export const PASSWORD = 'Passw0rd-for-tests';

/** A short random suffix (lowercase letters and digits) for unique names. */
export function suffix(length = 8): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
}

/** A unique lowercase name: prefix + random suffix (first character is always a letter). */
export function uniqueName(prefix = 'u'): string {
  return `${prefix}${suffix()}`;
}

export interface Session {
  readonly client: Client4;
  readonly token: string;
  readonly user: UserProfile;
}

export interface AdminSession extends Session {
  /** True when this call created the admin with the very first `POST /api/v4/users` on the server. */
  readonly createdHere: boolean;
  /** The raw signup answer when createdHere. */
  readonly signup?: { status: number; json: UserProfile };
}

/**
 * Logs in as the fixed admin; if that fails, creates it with `POST /api/v4/users` (the first user of a
 * fresh server becomes `system_admin system_user`) and logs in. Works on a shared server where another
 * file created the admin first.
 */
export async function ensureAdmin(url: string): Promise<AdminSession> {
  const first = await tryLogin(url, ADMIN_USERNAME, ADMIN_PASSWORD);
  if (first) return { ...first, createdHere: false };
  const signup = await raw(url, 'POST', '/api/v4/users', {
    body: { username: ADMIN_USERNAME, email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  const session = await tryLogin(url, ADMIN_USERNAME, ADMIN_PASSWORD);
  assert.ok(session, `could not create or log in as ${ADMIN_USERNAME}: signup answered ${signup.status} ${signup.text.slice(0, 300)}`);
  const createdHere = signup.status === 201;
  return { ...session, createdHere, ...(createdHere ? { signup: { status: signup.status, json: signup.json as UserProfile } } : {}) };
}

async function tryLogin(url: string, loginId: string, password: string): Promise<Session | undefined> {
  const client = newClient(url);
  try {
    const user = await client.login(loginId, password);
    return { client, token: client.getToken(), user };
  } catch {
    return undefined;
  }
}

/** Logs in with the official client. */
export async function login(url: string, loginId: string, password = PASSWORD): Promise<Session> {
  const client = newClient(url);
  const user = await client.login(loginId, password);
  return { client, token: client.getToken(), user };
}

export interface NewUser {
  readonly user: UserProfile;
  readonly username: string;
  readonly email: string;
  readonly password: string;
}

/** An admin creates a user (no open server needed). */
export async function createUser(admin: Client4, prefix = 'u', overrides: Partial<UserProfile> = {}): Promise<NewUser> {
  const username = uniqueName(prefix);
  const email = `${username}@example.com`;
  const user = await admin.createUser({ username, email, password: PASSWORD, ...overrides } as UserProfile, '', '');
  return { user, username, email, password: PASSWORD };
}

/** An admin creates a user, and the user logs in. */
export async function createUserSession(url: string, admin: Client4, prefix = 'u'): Promise<Session & NewUser> {
  const created = await createUser(admin, prefix);
  const session = await login(url, created.username, created.password);
  return { ...created, ...session };
}

/** Creates an open team named with a random suffix. */
export async function createTeam(client: Client4, prefix = 't', overrides: Partial<Team> = {}): Promise<Team> {
  const name = uniqueName(prefix);
  return client.createTeam({ name, display_name: `Team ${name}`, type: 'O', ...overrides } as Team);
}

/** Creates a bot (bot creation must be enabled). */
export async function createBot(client: Client4, prefix = 'b', overrides: Partial<Bot> = {}): Promise<Bot> {
  const username = uniqueName(prefix);
  return client.createBot({ username, display_name: `Bot ${username}`, description: 'made by the API suite', ...overrides });
}

/** Patches the system config (`PUT /api/v4/config/patch`) with the official client. */
export async function patchConfig(admin: Client4, patch: Record<string, Record<string, unknown>>): Promise<void> {
  await admin.patchConfig(patch as never);
}

/**
 * Every user `GET /api/v4/users` lists for the given query, paging with per_page=200 until a short
 * page (bounded so a broken server cannot loop forever).
 */
export async function listAllUsers(url: string, token: string, query: Record<string, string> = {}): Promise<UserProfile[]> {
  const all: UserProfile[] = [];
  for (let page = 0; page < 100; page++) {
    const params = new URLSearchParams({ ...query, page: String(page), per_page: '200' });
    const response = await raw(url, 'GET', `/api/v4/users?${params}`, { token });
    assert.equal(response.status, 200, `GET /users?${params}: ${response.status} ${response.text.slice(0, 200)}`);
    const batch = response.json as UserProfile[];
    all.push(...batch);
    if (batch.length < 200) return all;
  }
  assert.fail('GET /api/v4/users kept returning full pages for 100 pages');
}

/** Runs `fn` over items with at most `width` calls in flight. */
export async function inBatches<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) out.push(...(await Promise.all(items.slice(i, i + width).map(fn))));
  return out;
}

/** The space-separated roles string as a sorted array, for order-insensitive comparison. */
export function roleSet(roles: string | undefined): string[] {
  return (roles ?? '').split(' ').filter(Boolean).sort();
}

export interface IssuedToken {
  readonly id: string;
  readonly token: string;
}

/** `POST /users/{id}/tokens` with the official client; the answer must carry the secret token. */
export async function issueToken(client: Client4, userId: string, description = 'api suite'): Promise<IssuedToken> {
  const created = await client.createUserAccessToken(userId, description);
  assert.ok(created.token, `the creation answer carries the token: ${JSON.stringify(created)}`);
  return { id: created.id, token: created.token };
}
