import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { commonErrors } from '@switchyard/errors';
import { Errors } from '../../domain/errors';
import type { HookFile } from '../../domain/ports';

/** Where file parts of hook requests wait while the hook is checked (removed when the request ends). */
export const DEFAULT_HOOK_SPOOL_DIR = join(tmpdir(), 'switchyard-hook-spool');

/** What one multipart hook request may carry in files (README "Files on incoming hooks"). */
export interface FileLimits {
  /** `FileSettings.MaxFileSize`: per file. */
  readonly maxFileSize: number;
  /** The reference's per-post file count (10). */
  readonly maxFiles: number;
}

/** A file part spooled to a local file: read again as often as needed, removed by `release`. */
export interface SpooledFile extends HookFile {
  readonly path: string;
}

/** A multipart hook body as it arrived: the `payload` part, the other fields, the file parts (spooled). */
export interface HookForm {
  readonly payload?: string;
  readonly fields: Readonly<Record<string, string>>;
  readonly files: readonly SpooledFile[];
  /** Bytes of the whole body (for a vendor signature over it). */
  readonly size: number;
}

export interface HookFormOptions {
  /** `MaximumPayloadSizeBytes`: the fields together (the JSON payload included) may be at most this. */
  readonly maxFieldBytes: number;
  readonly limits: FileLimits;
  readonly spoolDir: string;
  /** Sees every byte of the body as it streams (a vendor signature's HMAC). */
  readonly onBytes?: (chunk: Buffer) => void;
}

const spooledFile = (name: string, path: string, size: number): SpooledFile => ({ name, path, size, read: (): Readable => createReadStream(path) });

/** Removes the spooled files of a request (no error when already gone). */
export async function release(files: readonly SpooledFile[]): Promise<void> {
  await Promise.all(files.map((f) => rm(f.path, { force: true })));
}

/** Removes spooled files older than `staleMs` (a crash's leftovers; younger ones may be a request in flight). */
export async function sweepSpool(dir: string, staleMs = 60 * 60 * 1000): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info && now - info.mtimeMs >= staleMs) await rm(path, { force: true });
  }
}

/**
 * Parses a multipart hook body as it streams (never held whole): fields in memory (at most
 * `maxFieldBytes` together), each `files` part written to a file in `spoolDir` (at most MaxFileSize each,
 * at most `maxFiles`). A file part under another name, a `files` part without a file name, a file over
 * the limit, too many files or parts, a truncated body: the first problem is thrown as a clear 4xx and
 * every spooled file is removed. Names are kept as sent (paths included) for posts to judge.
 */
export function readHookForm(source: Readable, headers: IncomingHttpHeaders, options: HookFormOptions): Promise<HookForm> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers,
        preservePath: true,
        limits: { fields: 50, parts: 100, fieldSize: options.maxFieldBytes, fieldNameSize: 100, files: options.limits.maxFiles, fileSize: options.limits.maxFileSize },
      });
    } catch (error) {
      source.resume();
      reject(Errors.badContentType(error instanceof Error ? error.message : 'bad multipart'));
      return;
    }
    const fields: Record<string, string> = {};
    const files: SpooledFile[] = [];
    const writes: Promise<void>[] = [];
    let payload: string | undefined;
    let fieldBytes = 0;
    let size = 0;
    let problem: unknown;
    const fail = (error: unknown): void => {
      problem ??= error;
    };
    parser.on('field', (name, value) => {
      fieldBytes += Buffer.byteLength(value);
      if (fieldBytes > options.maxFieldBytes) {
        fail(commonErrors.bodyTooLarge());
        return;
      }
      if (name.toLowerCase() === 'payload') payload ??= value;
      else fields[name] ??= value;
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
      const path = join(options.spoolDir, `${randomBytes(12).toString('hex')}.part`);
      let written = 0;
      stream.on('data', (chunk: Buffer) => {
        written += chunk.length;
      });
      stream.on('limit', () => fail(Errors.fileTooLarge(filename.slice(0, 255), options.limits.maxFileSize)));
      const file = spooledFile(filename, path, 0);
      files.push(file);
      writes.push(
        pipeline(stream, createWriteStream(path, { flags: 'wx' })).then(
          () => {
            (file as { size: number }).size = written;
          },
          (error: unknown) => fail(problem ?? Errors.badContentType(error instanceof Error ? error.message : 'bad multipart')),
        ),
      );
    });
    parser.on('filesLimit', () => fail(Errors.tooManyFiles(options.limits.maxFiles)));
    parser.on('fieldsLimit', () => fail(Errors.badContentType('too many fields')));
    parser.on('partsLimit', () => fail(Errors.badContentType('too many parts')));
    const finish = async (error?: unknown): Promise<void> => {
      await Promise.allSettled(writes);
      const failure = problem ?? error;
      if (failure !== undefined) {
        await release(files);
        reject(failure);
        return;
      }
      resolve({ ...(payload !== undefined ? { payload } : {}), fields, files, size });
    };
    let settled = false;
    const once = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      void finish(error);
    };
    parser.on('error', (error: unknown) => once(Errors.badContentType(error instanceof Error ? error.message : 'bad multipart')));
    parser.on('close', () => once());
    source.on('error', (error: unknown) => {
      once(error);
      parser.destroy();
    });
    mkdir(options.spoolDir, { recursive: true }).then(
      () => {
        // Counted as the parser takes them (the pipe's pace), never read ahead of it.
        source.on('data', (chunk: Buffer) => {
          size += chunk.length;
          options.onBytes?.(chunk);
        });
        source.pipe(parser);
      },
      (error: unknown) => {
        source.resume();
        once(error);
      },
    );
  });
}
