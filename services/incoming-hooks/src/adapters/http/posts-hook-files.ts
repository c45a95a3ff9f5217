import { randomBytes } from 'node:crypto';
import { PostsInternalPaths, Services } from '@switchyard/contracts';
import { AppError, isWireError, unavailable } from '@switchyard/errors';
import { callJson, serviceCredential, type Keys, type ServiceCredential, type ServiceTransport } from '@switchyard/http-kit';
import type { HookFile, HookFiles } from '../../domain/ports';

/** One multipart body of `files` parts; names travel RFC 5987-encoded (`filename*`), byte for byte. */
export function multipartOf(files: readonly HookFile[], boundary: string): Buffer {
  const parts: Buffer[] = [];
  for (const file of files) {
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename*=UTF-8''${encodeURIComponent(file.name)}\r\nContent-Type: application/octet-stream\r\n\r\n`;
    parts.push(Buffer.from(head, 'utf8'), file.data, Buffer.from('\r\n', 'utf8'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return Buffer.concat(parts);
}

/** A hook's files through posts' internal API (`/internal/v1/hook-files`). */
export class PostsHookFiles implements HookFiles {
  private readonly as: ServiceCredential;

  public constructor(private readonly transport: ServiceTransport, secret: Keys) {
    this.as = serviceCredential(Services.incomingHooks, secret);
  }

  public async upload(channelId: string, userId: string, files: readonly HookFile[]): Promise<string[]> {
    const boundary = `switchyard-${randomBytes(12).toString('hex')}`;
    const path = `${PostsInternalPaths.hookFiles}?channel_id=${encodeURIComponent(channelId)}&user_id=${encodeURIComponent(userId)}`;
    const response = await this.transport.send(Services.posts, {
      method: 'POST',
      path,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...this.as.headers('POST', path) },
      body: multipartOf(files, boundary),
    });
    const text = response.body.toString('utf8');
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (response.status >= 400) {
      if (isWireError(parsed)) {
        throw new AppError(response.status >= 500 ? 'upstream' : 'validation', { id: parsed.id, message: parsed.message, detailedError: String((parsed as { detailed_error?: unknown }).detailed_error ?? ''), statusCode: response.status });
      }
      throw unavailable('api.context.server_busy.app_error', `service posts answered ${response.status}`);
    }
    const infos = (parsed as { file_infos?: { id?: unknown }[] } | undefined)?.file_infos;
    if (!Array.isArray(infos) || infos.length !== files.length || infos.some((i) => typeof i.id !== 'string')) throw unavailable('api.context.server_busy.app_error', 'posts answered an unexpected upload result');
    return infos.map((i) => String(i.id));
  }

  public async discard(userId: string, fileIds: readonly string[]): Promise<void> {
    if (fileIds.length === 0) return;
    await callJson<unknown>(this.transport, Services.posts, { method: 'POST', path: PostsInternalPaths.discardHookFiles, as: this.as, body: { user_id: userId, file_ids: fileIds } });
  }
}
