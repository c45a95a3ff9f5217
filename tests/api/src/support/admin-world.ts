import { ensureAdmin, patchConfig, type AdminSession } from './fixtures';
import { startTarget, type Target } from './target';

/** What most black-box suites start from: a running target and its admin, logged in. */
export interface AdminWorld {
  readonly target: Target;
  readonly admin: AdminSession;
}

/**
 * Starts the target (embedded, or takes its turn on SWITCHYARD_URL) and logs in as the admin, creating it on a
 * fresh server. The caller stops `target` when done.
 */
export async function givenAdminWorld(): Promise<AdminWorld> {
  const target = await startTarget();
  try {
    return { target, admin: await ensureAdmin(target.url) };
  } catch (error) {
    await target.stop();
    throw error;
  }
}

/**
 * Reads the ServiceSettings `keys` now and returns what puts them back as they were (a secret reads back
 * masked, and a masked value leaves it as it is). The restore never throws: it runs in `after` hooks.
 */
export async function serviceSettingsRestorer(admin: AdminSession, keys: readonly string[]): Promise<() => Promise<void>> {
  const before = ((await admin.client.getConfig()) as unknown as { ServiceSettings: Record<string, unknown> }).ServiceSettings;
  const restore = Object.fromEntries(keys.map((key) => [key, before[key]]));
  return () => patchConfig(admin.client, { ServiceSettings: restore }).catch(() => undefined);
}
