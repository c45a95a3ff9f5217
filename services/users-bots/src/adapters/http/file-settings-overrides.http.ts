import { PostsInternalPaths, Services } from '@switchyard/contracts';
import { callJson, serviceCredential, type Keys, type ServiceCredential, type ServiceTransport } from '@switchyard/http-kit';
import type { Logger } from '@switchyard/logger';
import type { SystemConfig } from '@switchyard/system-config';
import type { FileSettingsOverrides } from '../../domain/ports';

type FileSettings = SystemConfig['FileSettings'];

/** posts' internal `GET /internal/v1/file-settings/overrides`; a failure is logged and read as "none". */
export class HttpFileSettingsOverrides implements FileSettingsOverrides {
  private readonly as: ServiceCredential;

  public constructor(private readonly transport: ServiceTransport, secret: Keys, private readonly logger: Logger) {
    this.as = serviceCredential(Services.usersBots, secret);
  }

  public async current(): Promise<Partial<FileSettings>> {
    try {
      const answer = await callJson<{ overrides?: Partial<FileSettings> }>(this.transport, Services.posts, { method: 'GET', path: PostsInternalPaths.fileSettingsOverrides, as: this.as });
      return answer?.overrides ?? {};
    } catch (error) {
      this.logger.warn('FileSettings from posts\' environment unknown: the config document is shown', { error: error instanceof Error ? error.message : String(error) });
      return {};
    }
  }
}
