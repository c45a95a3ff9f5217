import { InternalPaths, Services, type UserMentionSettings } from '@switchyard/contracts';
import { callJson, serviceCredential, type Keys, type ServiceCredential, type ServiceTransport } from '@switchyard/http-kit';
import type { MentionSettingsSource } from '../../domain/ports';

/** At most this many ids per call (users-bots takes 1,000). */
const PER_CALL = 1_000;

function isSettings(value: unknown): value is UserMentionSettings {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return Array.isArray(v.mention_keys) && v.mention_keys.every((k) => typeof k === 'string') && typeof v.first_name === 'string' && typeof v.channel === 'boolean' && (v.comments === undefined || v.comments === 'root' || v.comments === 'any');
}

/** users-bots' internal mention settings lookup. A failed call rejects (not cached; the caller then counts with the defaults). */
export class HttpMentionSettings implements MentionSettingsSource {
  private readonly as: ServiceCredential;

  public constructor(private readonly transport: ServiceTransport, secret: Keys) {
    this.as = serviceCredential(Services.posts, secret);
  }

  public async of(userIds: readonly string[]): Promise<ReadonlyMap<string, UserMentionSettings>> {
    const ids = [...new Set(userIds)];
    const out = new Map<string, UserMentionSettings>();
    for (let i = 0; i < ids.length; i += PER_CALL) {
      const answer = await callJson<{ settings?: Record<string, unknown> }>(this.transport, Services.usersBots, { method: 'POST', path: InternalPaths.mentionSettings, as: this.as, body: { ids: ids.slice(i, i + PER_CALL) } });
      for (const [id, value] of Object.entries(answer?.settings ?? {})) if (isSettings(value)) out.set(id, value);
    }
    return out;
  }
}
