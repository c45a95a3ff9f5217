/** A small bearer-token client for arranging data before the browser acts (never used for what the test checks in the page). */
export class SetupApi {
  public constructor(
    private readonly base: string,
    private token = '',
  ) {}

  public async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.base}/api/v4${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  public async login(loginId: string, password: string): Promise<void> {
    const res = await fetch(`${this.base}/api/v4/users/login`, { method: 'POST', body: JSON.stringify({ login_id: loginId, password }) });
    if (!res.ok) throw new Error(`login ${loginId}: ${res.status} ${await res.text()}`);
    this.token = res.headers.get('Token') ?? '';
  }
}

export interface World {
  readonly admin: { readonly username: string; readonly password: string; readonly id: string };
  readonly team: { readonly id: string; readonly name: string; readonly display_name: string };
  readonly channel: { readonly id: string; readonly name: string; readonly display_name: string };
  readonly api: SetupApi;
}

let counter = 0;

/** An admin (the first user of a fresh server, or an existing admin given by E2E_ADMIN/E2E_PASSWORD), a team and a channel of this test's own. */
export async function arrangeWorld(base: string): Promise<World> {
  const suffix = `${Date.now().toString(36)}${(counter++).toString(36)}`;
  const api = new SetupApi(base);
  const username = process.env.E2E_ADMIN ?? 'admin';
  const password = process.env.E2E_PASSWORD ?? 'Admin-pass-1';
  try {
    await api.call('POST', '/users', { username, email: `${username}@example.com`, password });
  } catch {
    // Already there (a second test file on the same server).
  }
  await api.login(username, password);
  const me = await api.call<{ id: string; roles: string }>('GET', '/users/me');
  if (!me.roles.includes('system_admin')) throw new Error(`${username} is not a system admin on ${base}`);
  const team = await api.call<{ id: string; name: string; display_name: string }>('POST', '/teams', { name: `e2e-${suffix}`, display_name: `E2E ${suffix}`, type: 'O' });
  const channel = await api.call<{ id: string; name: string; display_name: string }>('POST', '/channels', {
    team_id: team.id,
    name: `alerts-${suffix}`,
    display_name: `Alerts ${suffix}`,
    type: 'O',
  });
  return { admin: { username, password, id: me.id }, team, channel, api };
}
