import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { PostsInternalPaths, Services } from '@switchyard/contracts';
import { AppError, isWireError, unavailable } from '@switchyard/errors';
import { callJson, serviceCredential, type Keys, type ServiceCredential, type ServiceTransport } from '@switchyard/http-kit';
import type { HookFile, HookFiles } from '../../domain/ports';

/**
 * One multipart body of `files` parts, streamed from each file's bytes (never held whole), with its exact
 * length; names travel RFC 5987-encoded (`filename*`), byte for byte.
 */
export function multipartOf(files: readonly HookFile[], boundary: string): { readonly body: Readable; readonly length: number } {
  const heads = files.map((file) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename*=UTF-8''${encodeURIComponent(file.name)}\r\nContent-Type: application/octet-stream\r\n\r\n`, 'utf8'));
  const crlf = Buffer.from('\r\n', 'utf8');
  const close = Buffer.from(`--${boundary}--\r\n`, 'utf8');
  const length = heads.reduce((sum, head, i) => sum + head.length + (files[i]?.size ?? 0) + crlf.length, close.length);
  async function* parts(): AsyncGenerator<Buffer> {
    for (const [i, file] of files.entries()) {
      yield heads[i] as Buffer;
      for await (const chunk of file.read()) yield chunk as Buffer;
      yield crlf;
    }
    yield close;
  }
  return { body: Readable.from(parts(), { objectMode: false }), length };
}

/** A hook's files through posts' internal API (`/internal/v1/hook-files`). */
export class PostsHookFiles implements HookFiles {
  private readonly as: ServiceCredential;

  public constructor(private readonly transport: ServiceTransport, secret: Keys) {
    this.as = serviceCredential(Services.incomingHooks, secret);
  }

  public async upload(channelId: string, userId: string, files: readonly HookFile[], fileIds?: readonly string[]): Promise<string[]> {
    const boundary = `switchyard-${randomBytes(12).toString('hex')}`;
    const ids = fileIds ? `&file_ids=${fileIds.map(encodeURIComponent).join(',')}` : '';
    const path = `${PostsInternalPaths.hookFiles}?channel_id=${encodeURIComponent(channelId)}&user_id=${encodeURIComponent(userId)}${ids}`;
    const multipart = multipartOf(files, boundary);
    const response = await this.transport.send(Services.posts, {
      method: 'POST',
      path,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...this.as.headers('POST', path) },
      body: multipart.body,
      bodyLength: multipart.length,
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
