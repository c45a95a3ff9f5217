import { InternalPaths, Services } from '@switchyard/contracts';
import { callJson, serviceCredential, type Keys, type ServiceCredential, type ServiceTransport } from '@switchyard/http-kit';
import type { CrtPreferences } from '../../domain/ports';

/** At most this many ids per call (users-bots takes 1,000). */
const PER_CALL = 1_000;

/** users-bots' internal collapsed-threads preference lookup; a failure answers no preferences (the mode's default applies). */
export class HttpCrtPreferences implements CrtPreferences {
  private readonly as: ServiceCredential;

  public constructor(private readonly transport: ServiceTransport, secret: Keys) {
    this.as = serviceCredential(Services.posts, secret);
  }

  public async valuesOf(userIds: readonly string[]): Promise<ReadonlyMap<string, string>> {
    const ids = [...new Set(userIds)];
    const out = new Map<string, string>();
    for (let i = 0; i < ids.length; i += PER_CALL) {
      try {
        const answer = await callJson<{ values?: Record<string, unknown> }>(this.transport, Services.usersBots, { method: 'POST', path: InternalPaths.crtPreferences, as: this.as, body: { ids: ids.slice(i, i + PER_CALL) } });
        for (const [id, value] of Object.entries(answer?.values ?? {})) if (typeof value === 'string') out.set(id, value);
      } catch {
        // As no preference: the CollapsedThreads default applies to these users.
      }
    }
    return out;
  }
}
