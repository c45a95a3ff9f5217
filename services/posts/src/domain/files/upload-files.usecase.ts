import { newId } from '@switchyard/ids';
import { Permissions } from '@switchyard/permissions';
import { accessTo } from '../access';
import type { Actor } from '../actor';
import { Errors } from '../errors';
import type { FilesDeps } from './files-deps';
import type { StagedFile } from './file-ports';
import { FileErrors } from './file-errors';
import type { FileInfo } from './file-info';
import { baseNameOf, checkedFileName, extensionOf, mimeTypeOf } from './file-name';

/** One file of an upload request, staged (streamed to a local file, never held whole: ADR 0029). */
export interface UploadedFile {
  readonly name: string;
  readonly staged: StagedFile;
}

export interface UploadCommand {
  readonly channelId: string;
  readonly files: readonly UploadedFile[];
  /**
   * The files' ids, chosen by the caller (a hook request retried with its Idempotency-Key names the same
   * ids again): a file already stored under one of them by the same uploader is answered as it is, its
   * new bytes dropped, so a retry never stores a second copy. An id held by another upload is a 400.
   */
  readonly fileIds?: readonly string[];
}

function day(at: number): string {
  const d = new Date(at);
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
}

export type UploadChannel = NonNullable<Awaited<ReturnType<FilesDeps['channels']['findById']>>>;

interface Prepared {
  readonly info: FileInfo;
  readonly staged: StagedFile;
  readonly thumbnail?: Buffer;
  readonly preview?: Buffer;
}

/**
 * What an upload needs before any byte is read (the route calls it as soon as the channel is known):
 * attachments on, a storage driver, the channel, and upload_file on it.
 */
export async function authorizeUpload(deps: FilesDeps, actor: Actor, channelId: string): Promise<UploadChannel> {
  const settings = deps.liveConfig.current().FileSettings;
  if (!settings.EnableFileAttachments) throw FileErrors.attachmentsDisabled();
  if (settings.DriverName === '') throw FileErrors.storageDisabled();
  const channel = await deps.channels.findById(channelId);
  if (!channel) throw Errors.channelNotFound();
  await accessTo(deps, actor, channel).require(Permissions.uploadFile);
  return channel;
}

/** Drops staged files that will not be committed (best effort: a leftover is swept at the next start). */
export async function discardAll(deps: FilesDeps, files: readonly { readonly staged: StagedFile }[]): Promise<void> {
  const store = deps.fileStore();
  await Promise.all(files.map((f) => store.discard(f.staged).catch(() => undefined)));
}

/**
 * `POST /files` (and every other upload): upload_file on the channel, then every staged file checked
 * (name, size, image decoding and pixel count) before any is committed, so a bad file leaves nothing
 * behind. Each file's bytes (and its thumbnail and preview) are stored before its info, so an info never
 * names missing bytes. Every staged file is consumed (committed or discarded), whatever happens.
 */
export async function uploadFiles(deps: FilesDeps, actor: Actor, command: UploadCommand, authorized?: UploadChannel): Promise<FileInfo[]> {
  let pending: readonly { readonly staged: StagedFile }[] = command.files;
  try {
    const channel = authorized ?? (await authorizeUpload(deps, actor, command.channelId));
    if (command.files.length === 0) throw FileErrors.readRequest('no file in the request');
    const earlier = await earlierCopies(deps, actor, command);
    const fresh = command.files.map((file, i) => ({ file, id: command.fileIds?.[i] ?? newId() })).filter((_, i) => !earlier[i]);
    const prepared = await prepareAll(deps, actor, channel, fresh);
    pending = [...prepared.map((p) => ({ staged: p.staged })), ...command.files.filter((_, i) => earlier[i])];
    const kept = command.files.filter((_, i) => earlier[i]);
    const saved = await storeAll(deps, prepared, (left) => (pending = [...left, ...kept]));
    let next = 0;
    return command.files.map((_, i) => earlier[i] ?? (saved[next++] as FileInfo));
  } finally {
    await discardAll(deps, pending);
  }
}

/** The files an earlier try stored under the ids the caller chose (same uploader, not deleted), by position. */
async function earlierCopies(deps: FilesDeps, actor: Actor, command: UploadCommand): Promise<(FileInfo | undefined)[]> {
  const ids = command.fileIds;
  if (!ids) return command.files.map(() => undefined);
  if (ids.length !== command.files.length) throw FileErrors.readRequest(`${ids.length} file ids for ${command.files.length} files`);
  const found = await Promise.all(ids.map((id) => deps.files.findById(id)));
  for (const info of found) {
    if (info && (info.user_id !== actor.userId || info.delete_at !== 0)) throw FileErrors.readRequest(`the file id ${info.id} is taken`);
  }
  return found;
}

async function prepareAll(deps: FilesDeps, actor: Actor, channel: UploadChannel, files: readonly { readonly file: UploadedFile; readonly id: string }[]): Promise<Prepared[]> {
  const settings = deps.liveConfig.current().FileSettings;
  const now = deps.clock.now();
  const prepared: Prepared[] = [];
  for (const { file, id } of files) {
    const name = checkedFileName(file.name);
    const size = file.staged.size;
    if (size > settings.MaxFileSize) throw FileErrors.tooLarge(name, size, settings.MaxFileSize);
    if (size === 0) throw FileErrors.emptyFile(name);
    const extension = extensionOf(name);
    const mimeType = mimeTypeOf(name);
    const folder = `${day(now)}/teams/noteam/channels/${channel.id}/users/${actor.userId}/${id}`;
    let image: { width: number; height: number; hasPreviewImage: boolean; miniPreview?: Buffer; thumbnail?: Buffer; preview?: Buffer } | undefined;
    if (mimeType.startsWith('image/') && extension !== 'svg') {
      const started = process.hrtime.bigint();
      const outcome = await deps.images.process(file.staged.path, extension);
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
      size,
      mime_type: mimeType,
      ...(image ? { width: image.width, height: image.height, has_preview_image: image.hasPreviewImage } : {}),
      mini_preview: image?.miniPreview ? image.miniPreview.toString('base64') : null,
      path: `${folder}/${name}`,
      thumbnail_path: image?.thumbnail ? `${folder}/${base}_thumb.jpg` : '',
      preview_path: image?.preview ? `${folder}/${base}_preview.jpg` : '',
    };
    prepared.push({ info, staged: file.staged, ...(image?.thumbnail ? { thumbnail: image.thumbnail } : {}), ...(image?.preview ? { preview: image.preview } : {}) });
  }
  return prepared;
}

/** Commits each file then writes its info; `left` is told which staged files are still uncommitted. */
async function storeAll(deps: FilesDeps, prepared: readonly Prepared[], left: (rest: readonly Prepared[]) => void): Promise<FileInfo[]> {
  const store = deps.fileStore();
  const saved: FileInfo[] = [];
  for (const [index, { info, staged, thumbnail, preview }] of prepared.entries()) {
    left(prepared.slice(index + 1));
    await store.commit(staged, info.path);
    try {
      if (thumbnail) await store.write(info.thumbnail_path, thumbnail);
      if (preview) await store.write(info.preview_path, preview);
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
