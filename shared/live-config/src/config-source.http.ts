import { InternalPaths, Services } from '@switchyard/contracts';
import { callJson, type ServiceTransport } from '@switchyard/http-kit';
import { withDefaults, type SystemConfig } from '@switchyard/system-config';
import type { ConfigSource } from './live-config';
import { internalCallHeaders } from '@switchyard/http-kit';

/** users-bots' `GET /internal/v1/config`: the full system config. */
export class HttpConfigSource implements ConfigSource {
  private readonly headers: Record<string, string>;

  public constructor(private readonly transport: ServiceTransport, secret: string) {
    this.headers = internalCallHeaders(secret);
  }

  public async load(): Promise<SystemConfig> {
    const document = await callJson<Record<string, unknown>>(this.transport, Services.usersBots, { method: 'GET', path: InternalPaths.config, headers: this.headers });
    if (typeof document !== 'object' || document === null) throw new Error('users-bots answered no config document');
    return withDefaults(document);
  }
}
