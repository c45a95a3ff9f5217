import { newId } from '@switchyard/ids';
import { Permissions } from '@switchyard/permissions';
import { accessTo } from '../access';
import type { Actor } from '../actor';
import { Errors } from '../errors';
import type { FilesDeps } from './files-deps';
import { FileErrors } from './file-errors';
import type { FileInfo } from './file-info';
import { baseNameOf, checkedFileName, extensionOf, mimeTypeOf } from './file-name';

/** One file of an upload request, read whole (the gateway hands bodies as buffers). */
export interface UploadedFile {
  readonly name: string;
  readonly data: Buffer;
}

export interface UploadCommand {
  readonly channelId: string;
  readonly files: readonly UploadedFile[];
}

function day(at: number): string {
  const d = new Date(at);
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
}

interface Prepared {
  readonly info: FileInfo;
  readonly data: Buffer;
  readonly thumbnail?: Buffer;
  readonly preview?: Buffer;
}

/**
 * `POST /files`: upload_file on the channel, then every file checked (name, size, image decoding and
 * pixel count) before any is stored, so a bad file leaves nothing behind. Each file's bytes (and its
 * thumbnail and preview) are written before its info, so an info never names missing bytes.
 */
export async function uploadFiles(deps: FilesDeps, actor: Actor, command: UploadCommand): Promise<FileInfo[]> {
  const settings = deps.liveConfig.current().FileSettings;
  if (!settings.EnableFileAttachments) throw FileErrors.attachmentsDisabled();
  if (settings.DriverName === '') throw FileErrors.storageDisabled();
  const channel = await deps.channels.findById(command.channelId);
  if (!channel) throw Errors.channelNotFound();
  await accessTo(deps, actor, channel).require(Permissions.uploadFile);
  if (command.files.length === 0) throw FileErrors.readRequest('no file in the request');
  const now = deps.clock.now();
  const prepared: Prepared[] = [];
  for (const file of command.files) {
    const name = checkedFileName(file.name);
    if (file.data.length > settings.MaxFileSize) throw FileErrors.tooLarge(name, file.data.length, settings.MaxFileSize);
    if (file.data.length === 0) throw FileErrors.emptyFile(name);
    const id = newId();
    const extension = extensionOf(name);
    const mimeType = mimeTypeOf(name);
    const folder = `${day(now)}/teams/noteam/channels/${channel.id}/users/${actor.userId}/${id}`;
    let image: { width: number; height: number; hasPreviewImage: boolean; miniPreview?: Buffer; thumbnail?: Buffer; preview?: Buffer } | undefined;
    if (mimeType.startsWith('image/') && extension !== 'svg') {
      const started = process.hrtime.bigint();
      const outcome = await deps.images.process(file.data, extension);
      deps.metrics?.previewSeconds(Number(process.hrtime.bigint() - started) / 1e9);
      if (outcome.ok) image = outcome.image;
      else if (outcome.reason === 'too_large') throw FileErrors.largeImage(name, outcome.detail, deps.images.maxPixels);
      else if (outcome.reason === 'corrupt') throw FileErrors.badImage(name, outcome.detail);
    }
    const base = baseNameOf(name);
    const info: FileInfo = {
      id,
      user_id: actor.userId,
      post_id: '',
      channel_id: channel.id,
      create_at: now,
      update_at: now,
      delete_at: 0,
      name,
      extension,
      size: file.data.length,
      mime_type: mimeType,
      ...(image ? { width: image.width, height: image.height, has_preview_image: image.hasPreviewImage } : {}),
      mini_preview: image?.miniPreview ? image.miniPreview.toString('base64') : null,
      path: `${folder}/${name}`,
      thumbnail_path: image?.thumbnail ? `${folder}/${base}_thumb.jpg` : '',
      preview_path: image?.preview ? `${folder}/${base}_preview.jpg` : '',
    };
    prepared.push({ info, data: file.data, ...(image?.thumbnail ? { thumbnail: image.thumbnail } : {}), ...(image?.preview ? { preview: image.preview } : {}) });
  }
  const store = deps.fileStore();
  const saved: FileInfo[] = [];
  for (const { info, data, thumbnail, preview } of prepared) {
    await store.write(info.path, data, settings.MaxFileSize);
    if (thumbnail) await store.write(info.thumbnail_path, thumbnail);
    if (preview) await store.write(info.preview_path, preview);
    try {
      await deps.files.insert(info);
    } catch (error) {
      await Promise.all([info.path, info.thumbnail_path, info.preview_path].filter((k) => k !== '').map((k) => store.remove(k).catch(() => undefined)));
      throw FileErrors.saveFailed(error instanceof Error ? error.message : String(error));
    }
    deps.metrics?.stored(info.size);
    saved.push(info);
  }
  return saved;
}
