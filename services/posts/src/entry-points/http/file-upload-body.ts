import busboy from 'busboy';
import type { IncomingHttpHeaders } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { commonErrors, isAppError } from '@switchyard/errors';
import { FileErrors } from '../../domain/files/file-errors';
import { isFileTooLarge, type StagedFile } from '../../domain/files/file-ports';
import type { UploadedFile } from '../../domain/files/upload-files.usecase';

/** An upload request as read: the files (staged), the channel (form or query) and the client ids. */
export interface UploadForm {
  readonly channelId: string | undefined;
  readonly files: UploadedFile[];
  readonly clientIds: string[];
}

/** Where the files of an upload go as they stream in. */
export interface UploadSink {
  /** Called once, when the channel is known and before the first file's bytes are taken (modes A and C). */
  authorize(channelId: string): Promise<void>;
  /** Streams one file to a staged file, at most `max` bytes (FileTooLargeError). */
  stage(data: Readable, max: number): Promise<StagedFile>;
  discard(staged: StagedFile): Promise<void>;
}

export interface UploadQuery {
  readonly channelId?: string;
  readonly filename?: string;
  readonly clientId?: string;
}

/** Parts one request may have (fields and files): more is a clear 400, never a slow parse. */
const MAX_PARTS = 128;
const MAX_FILES = 64;
const MAX_FIELD_BYTES = 10 * 1024;

const isMultipart = (headers: IncomingHttpHeaders): boolean => /^multipart\/form-data\b/i.test(headers['content-type'] ?? '');

/** A staging's failure as the client sees it: over the file cap 413, the request's own errors as they are, a broken body 400. */
function stagingError(error: unknown, filename: string, max: number): unknown {
  if (isFileTooLarge(error)) return FileErrors.tooLarge(filename, -1, max);
  if (isAppError(error)) return error;
  return FileErrors.readRequest(error instanceof Error ? error.message : String(error));
}

/** Mode C: the body is the file, named by `filename` (declared length checked before reading). */
async function readRawUpload(body: Readable, headers: IncomingHttpHeaders, query: UploadQuery, maxFileSize: number, sink: UploadSink): Promise<UploadForm> {
  if (query.channelId === undefined) throw commonErrors.invalidUrlParam('channel_id');
  if (query.filename === undefined || query.filename === '') throw commonErrors.invalidUrlParam('filename');
  await sink.authorize(query.channelId);
  const declared = headers['content-length'];
  if (declared === '0') throw FileErrors.readRequest('the body is empty');
  if (declared !== undefined && Number(declared) > maxFileSize) throw FileErrors.tooLarge(query.filename, Number(declared), maxFileSize);
  let staged: StagedFile;
  try {
    staged = await sink.stage(body, maxFileSize);
  } catch (error) {
    throw stagingError(error, query.filename, maxFileSize);
  }
  if (staged.size === 0) {
    await sink.discard(staged);
    throw FileErrors.readRequest('the body is empty');
  }
  return { channelId: query.channelId, files: [{ name: query.filename, staged }], clientIds: query.clientId ? [query.clientId] : [] };
}

/**
 * Reads `POST /files` (mattermost-wire-3.md §1.2) as it streams: each file part goes to `sink.stage` while
 * the next is parsed, so no file is ever held whole (ADR 0029). Multipart: `channel_id` and `client_ids`
 * fields, any part with a file name is a file. When `channel_id` comes before the first file (or in the
 * query), the upload is authorized before any file byte is taken and any other field is 400
 * invalid_body_param; a file first and no query channel is the reference's legacy mode, where other fields
 * are ignored (and authorization waits for the end). Raw body (any other content type): the body is the
 * file, named by `filename`. On any failure every staged file is discarded.
 */
export function readUploadForm(body: Readable, headers: IncomingHttpHeaders, query: UploadQuery, maxFileSize: number, sink: UploadSink): Promise<UploadForm> {
  if (!isMultipart(headers)) return readRawUpload(body, headers, query, maxFileSize, sink);
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
    const staging: Promise<UploadedFile | undefined>[] = [];
    let legacy: boolean | undefined;
    let authorized: Promise<void> | undefined;
    let settled = false;

    /** Waits for every staging to finish, then answers (discarding them all on failure). */
    const finish = async (error?: unknown): Promise<void> => {
      if (settled) return;
      settled = true;
      const files = (await Promise.all(staging)).filter((f): f is UploadedFile => f !== undefined);
      const problem = failure ?? error ?? checkForm(files.length);
      if (problem !== undefined) {
        await Promise.all(files.map((f) => sink.discard(f.staged).catch(() => undefined)));
        reject(problem);
        return;
      }
      resolve({ channelId: query.channelId ?? formChannel, files, clientIds });
    };
    const checkForm = (fileCount: number): unknown => {
      if (query.channelId !== undefined && formChannel !== undefined && query.channelId !== formChannel) return FileErrors.multipleChannelIds();
      if ((query.channelId ?? formChannel) === undefined) return commonErrors.invalidBodyParam('channel_id');
      if (clientIds.length > 0 && clientIds.length !== fileCount) return FileErrors.clientIdCount(clientIds.length, fileCount);
      return undefined;
    };

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(FileErrors.readRequest(`the field ${name} is over ${MAX_FIELD_BYTES} bytes`));
      if (name === 'channel_id') {
        if (formChannel !== undefined && formChannel !== value) fail(FileErrors.multipleChannelIds());
        formChannel = value;
        legacy ??= false;
      } else if (name === 'client_ids') {
        if (legacy === false && staging.length > 0 && clientIds.length === 0) fail(commonErrors.invalidBodyParam('client_ids'));
        clientIds.push(value);
      } else if (legacy !== true) {
        fail(commonErrors.invalidBodyParam(name));
      }
    });
    parser.on('file', (_name, stream, info) => {
      // Through a PassThrough: a staging that fails unpipes it, and the part is drained so parsing goes on.
      // A truncated body errors the part's stream: that error ends the staging too (pipe would not pass it on).
      const pass = new PassThrough();
      pass.on('error', () => undefined);
      stream.on('error', (error: Error) => pass.destroy(error));
      if (legacy === undefined) legacy = query.channelId === undefined && formChannel === undefined;
      const channel = query.channelId ?? formChannel;
      if (!legacy && channel !== undefined && query.channelId !== undefined && formChannel !== undefined && query.channelId !== formChannel) fail(FileErrors.multipleChannelIds());
      if (!legacy && channel !== undefined && failure === undefined) authorized ??= sink.authorize(channel);
      if (failure !== undefined) {
        stream.resume();
        return;
      }
      const filename = info.filename ?? '';
      stream.on('limit', () => fail(FileErrors.tooLarge(filename, -1, maxFileSize)));
      stream.pipe(pass);
      const drain = (): void => {
        stream.unpipe(pass);
        stream.resume();
      };
      staging.push(
        (authorized ?? Promise.resolve())
          .then(() => sink.stage(pass, maxFileSize))
          .then((staged) => ({ name: filename, staged }))
          .catch((error: unknown) => {
            fail(stagingError(error, filename, maxFileSize));
            drain();
            return undefined;
          }),
      );
    });
    parser.on('partsLimit', () => fail(FileErrors.tooManyParts()));
    parser.on('filesLimit', () => fail(FileErrors.tooManyParts()));
    parser.on('fieldsLimit', () => fail(FileErrors.tooManyParts()));
    parser.on('error', (error: unknown) => void finish(FileErrors.readRequest(error instanceof Error ? error.message : 'malformed multipart body')));
    parser.on('close', () => void finish());
    // The body failing (the request cap, a client gone) ends the parse with its own error.
    body.on('error', (error: Error) => {
      fail(isAppError(error) ? error : FileErrors.readRequest(error.message));
      parser.destroy(error);
    });
    body.pipe(parser);
  });
}
