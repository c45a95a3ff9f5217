import type { IncomingHttpHeaders } from 'node:http';
import busboy from 'busboy';
import { Errors } from '../../domain/errors';
import type { HookFile } from '../../domain/ports';
import { emptyRequest, type WebhookRequest } from '../../domain/ingest/webhook-request';

/** What one multipart hook request may carry in files (README "Files on incoming hooks"). */
export interface FileLimits {
  /** `FileSettings.MaxFileSize`: per file. */
  readonly maxFileSize: number;
  /** The reference's per-post file count (10). */
  readonly maxFiles: number;
}

export interface DecodedMultipart {
  readonly request: WebhookRequest | null;
  readonly files: readonly HookFile[];
}

/** Form field names (case-insensitive, as gorilla/schema) → request fields; the description's spellings too. */
const FORM_FIELDS: Readonly<Record<string, keyof WebhookRequest>> = {
  text: 'text',
  username: 'username',
  iconurl: 'icon_url',
  icon_url: 'icon_url',
  channelname: 'channel',
  channel: 'channel',
  type: 'type',
  iconemoji: 'icon_emoji',
  icon_emoji: 'icon_emoji',
  rootid: 'root_id',
  root_id: 'root_id',
};

/**
 * multipart/form-data (mattermost-wire.md §9): one field per parameter, or a `payload` field holding the
 * JSON body; and, as the extension, up to `maxFiles` parts named `files`, each with a file name, which the
 * hook's post carries. With files the JSON `payload` is the body (no other field). A file part under
 * another name, a `files` part without a file name, a file over `maxFileSize`, more files than allowed, a
 * truncated body: a clear 4xx, nothing kept. Names are kept as sent (paths included) for posts to judge.
 */
export function decodeMultipart(
  headers: Record<string, string | string[] | undefined>,
  raw: Buffer,
  maxBytes: number,
  limits: FileLimits,
  decodeJson: (text: string) => WebhookRequest | null,
): Promise<DecodedMultipart> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: headers as IncomingHttpHeaders,
        preservePath: true,
        limits: { fields: 50, parts: 100, fieldSize: maxBytes, fieldNameSize: 100, files: limits.maxFiles, fileSize: limits.maxFileSize },
      });
    } catch (error) {
      reject(Errors.badContentType(error instanceof Error ? error.message : 'bad multipart'));
      return;
    }
    const fields: Record<string, string> = {};
    const files: HookFile[] = [];
    let payload: string | undefined;
    let problem: unknown;
    const fail = (error: unknown): void => {
      problem ??= error;
    };
    parser.on('field', (name, value) => {
      const lower = name.toLowerCase();
      if (lower === 'payload') {
        payload ??= value;
        return;
      }
      if (lower === 'files') {
        fail(Errors.filePart('files', 'a files part needs a file name'));
        return;
      }
      const target = FORM_FIELDS[lower];
      if (!target) {
        fail(Errors.badContentType(`schema: invalid path "${name.slice(0, 100)}"`));
        return;
      }
      fields[target] ??= value;
    });
    parser.on('file', (name, stream, info) => {
      // A truncated body errors the part's stream too: without a listener that is an uncaught exception.
      stream.on('error', () => undefined);
      const filename = info.filename ?? '';
      if (name !== 'files') fail(Errors.filePart(name.slice(0, 100), 'file parts must be named files'));
      else if (filename === '') fail(Errors.filePart('files', 'a files part needs a file name'));
      if (problem !== undefined) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(Errors.fileTooLarge(filename.slice(0, 255), limits.maxFileSize)));
      stream.on('end', () => files.push({ name: filename, data: Buffer.concat(chunks) }));
    });
    parser.on('filesLimit', () => fail(Errors.tooManyFiles(limits.maxFiles)));
    parser.on('fieldsLimit', () => fail(Errors.badContentType('too many fields')));
    parser.on('partsLimit', () => fail(Errors.badContentType('too many parts')));
    parser.on('error', (error: unknown) => reject(problem ?? Errors.badContentType(error instanceof Error ? error.message : 'bad multipart')));
    parser.on('close', () => {
      if (problem !== undefined) {
        reject(problem);
        return;
      }
      try {
        if (files.length > 0) {
          if (payload === undefined || Object.keys(fields).length > 0) throw Errors.filesNeedPayload();
          resolve({ request: decodeJson(payload), files });
        } else if (payload !== undefined && Object.keys(fields).length === 0) resolve({ request: decodeJson(payload), files });
        else resolve({ request: { ...emptyRequest, ...fields }, files });
      } catch (error) {
        reject(error);
      }
    });
    parser.end(raw);
  });
}
