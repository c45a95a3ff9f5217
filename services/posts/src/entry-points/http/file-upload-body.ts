import busboy from 'busboy';
import type { IncomingHttpHeaders } from 'node:http';
import { commonErrors } from '@switchyard/errors';
import { FileErrors } from '../../domain/files/file-errors';
import type { UploadedFile } from '../../domain/files/upload-files.usecase';

/** An upload request as read: the files, the channel (form or query) and the client ids. */
export interface UploadForm {
  readonly channelId: string | undefined;
  readonly files: UploadedFile[];
  readonly clientIds: string[];
}

/** Parts one request may have (fields and files): more is a clear 400, never a slow parse. */
const MAX_PARTS = 128;
const MAX_FILES = 64;
const MAX_FIELD_BYTES = 10 * 1024;

const isMultipart = (headers: IncomingHttpHeaders): boolean => /^multipart\/form-data\b/i.test(headers['content-type'] ?? '');

/**
 * Reads `POST /files` (mattermost-wire-3.md §1.2). Multipart: `channel_id` and `client_ids` fields, any part
 * with a file name is a file. When `channel_id` comes before the first file (or in the query), any other
 * field is 400 invalid_body_param; a file first and no query channel is the reference's legacy mode, where
 * other fields are ignored. Raw body (any other content type): the body is the file, named by `filename`.
 */
export function readUploadForm(headers: IncomingHttpHeaders, body: Buffer, query: { channelId?: string; filename?: string; clientId?: string }, maxFileSize: number): Promise<UploadForm> {
  if (!isMultipart(headers)) {
    if (query.channelId === undefined) return Promise.reject(commonErrors.invalidUrlParam('channel_id'));
    if (query.filename === undefined || query.filename === '') return Promise.reject(commonErrors.invalidUrlParam('filename'));
    if (body.length === 0) return Promise.reject(FileErrors.readRequest('the body is empty'));
    return Promise.resolve({ channelId: query.channelId, files: [{ name: query.filename, data: body }], clientIds: query.clientId ? [query.clientId] : [] });
  }
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // preservePath: the name as sent, so a name with a path is refused instead of silently cut.
      parser = busboy({ headers, preservePath: true, limits: { parts: MAX_PARTS, files: MAX_FILES, fieldSize: MAX_FIELD_BYTES, fileSize: maxFileSize } });
    } catch (error) {
      reject(FileErrors.readRequest(error instanceof Error ? error.message : 'not a multipart body'));
      return;
    }
    let failure: unknown;
    const fail = (error: unknown): void => {
      failure ??= error;
    };
    let formChannel: string | undefined;
    const clientIds: string[] = [];
    const files: UploadedFile[] = [];
    let legacy: boolean | undefined;
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(FileErrors.readRequest(`the field ${name} is over ${MAX_FIELD_BYTES} bytes`));
      if (name === 'channel_id') {
        if (formChannel !== undefined && formChannel !== value) fail(FileErrors.multipleChannelIds());
        formChannel = value;
        legacy ??= false;
      } else if (name === 'client_ids') {
        if (legacy === false && files.length > 0 && clientIds.length === 0) fail(commonErrors.invalidBodyParam('client_ids'));
        clientIds.push(value);
      } else if (legacy !== true) {
        fail(commonErrors.invalidBodyParam(name));
      }
    });
    parser.on('file', (_name, stream, info) => {
      // A truncated body errors the part's stream too: without a listener that is an uncaught exception.
      stream.on('error', () => undefined);
      if (legacy === undefined) legacy = query.channelId === undefined && formChannel === undefined;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(FileErrors.tooLarge(info.filename ?? '', -1, maxFileSize)));
      stream.on('end', () => files.push({ name: info.filename ?? '', data: Buffer.concat(chunks) }));
    });
    parser.on('partsLimit', () => fail(FileErrors.tooManyParts()));
    parser.on('filesLimit', () => fail(FileErrors.tooManyParts()));
    parser.on('fieldsLimit', () => fail(FileErrors.tooManyParts()));
    parser.on('error', (error: unknown) => reject(failure ?? FileErrors.readRequest(error instanceof Error ? error.message : 'malformed multipart body')));
    parser.on('close', () => {
      if (failure !== undefined) {
        reject(failure);
        return;
      }
      if (query.channelId !== undefined && formChannel !== undefined && query.channelId !== formChannel) {
        reject(FileErrors.multipleChannelIds());
        return;
      }
      const channelId = query.channelId ?? formChannel;
      if (channelId === undefined) {
        reject(commonErrors.invalidBodyParam('channel_id'));
        return;
      }
      if (clientIds.length > 0 && clientIds.length !== files.length) {
        reject(FileErrors.clientIdCount(clientIds.length, files.length));
        return;
      }
      resolve({ channelId, files, clientIds });
    });
    parser.end(body);
  });
}
