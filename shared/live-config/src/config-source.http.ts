import { InternalPaths, Services } from '@switchyard/contracts';
import { callJson, serviceCredential, type Keys, type ServiceCredential, type ServiceTransport } from '@switchyard/http-kit';
import { withDefaults, type SystemConfig } from '@switchyard/system-config';
import type { ConfigSource } from './live-config';

/** users-bots' `GET /internal/v1/config`: the full system config. */
export class HttpConfigSource implements ConfigSource {
  private readonly as: ServiceCredential;

  /** `caller`: the name of the service loading it (users-bots lets only known services read the config). */
  public constructor(private readonly transport: ServiceTransport, secret: Keys, caller: string) {
    this.as = serviceCredential(caller, secret);
  }

  public async load(): Promise<SystemConfig> {
    const document = await callJson<Record<string, unknown>>(this.transport, Services.usersBots, { method: 'GET', path: InternalPaths.config, as: this.as });
    if (typeof document !== 'object' || document === null) throw new Error('users-bots answered no config document');
    return withDefaults(document);
  }
}
