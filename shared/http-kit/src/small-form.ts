import busboy from 'busboy';
import type { Request, Response } from 'express';
import { rawBody } from './body';

/** How one route words its refusals of a small multipart form (the reference has one set of ids per route). */
export interface SmallFormErrors {
  readonly tooLarge: () => Error;
  readonly parse: (detail: string) => Error;
}

export interface SmallFormOptions {
  /** The most bytes the whole body may have; a declared or streamed excess is `tooLarge`. */
  readonly limit: number;
  /** The file part kept (the first one of that name). */
  readonly fileField: string;
  /** The text fields kept (the first value of each). */
  readonly fieldNames?: readonly string[];
  /** How many file parts busboy reads at most (others are skipped). */
  readonly maxFiles?: number;
  readonly errors: SmallFormErrors;
}

export interface SmallForm {
  readonly fields: ReadonlyMap<string, string>;
  /** The kept file part's bytes, absent when the form has none. */
  readonly file?: Buffer;
}

const messageOf = (error: unknown, fallback: string): string => (error instanceof Error ? error.message : fallback);

/** The body within `limit` bytes, buffered (these forms are at most a few hundred KiB). */
async function readBody(req: Request, res: Response, limit: number, tooLarge: () => Error): Promise<Buffer> {
  if (Number(req.headers['content-length'] ?? '0') > limit) {
    req.resume();
    throw tooLarge();
  }
  await new Promise<void>((resolve, reject) => {
    rawBody(() => limit, tooLarge)(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
  });
  return req.rawBody ?? Buffer.alloc(0);
}

function parseForm(headers: Request['headers'], body: Buffer, options: SmallFormOptions): Promise<SmallForm> {
  const { limit, fileField, fieldNames = [], maxFiles = 1, errors } = options;
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers, limits: { files: maxFiles, fields: 20, parts: 40, fieldSize: limit, fileSize: limit } });
    } catch (error) {
      reject(errors.parse(messageOf(error, 'not a multipart/form-data body')));
      return;
    }
    const fields = new Map<string, string>();
    let file: Buffer | undefined;
    let taken = false;
    let truncated = false;
    parser.on('field', (name, value) => {
      if (fieldNames.includes(name) && !fields.has(name)) fields.set(name, value);
    });
    parser.on('file', (name, stream) => {
      // A truncated body ("Unexpected end of form") errors the part's stream too; without a listener that
      // is an uncaught exception in the service. The parser's own error answers the request.
      stream.on('error', () => undefined);
      // Taken when its part starts: a buffered body can start the next part before this one's 'end'.
      if (name !== fileField || taken) {
        stream.resume();
        return;
      }
      taken = true;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => (truncated = true));
      stream.on('end', () => (file = Buffer.concat(chunks)));
    });
    parser.on('error', (error: unknown) => reject(errors.parse(messageOf(error, 'malformed multipart body'))));
    parser.on('close', () => {
      if (truncated) reject(errors.tooLarge());
      else resolve({ fields, ...(file !== undefined ? { file } : {}) });
    });
    parser.end(body);
  });
}

/**
 * Reads a small multipart/form-data upload (a picture, an emoji): the body within `limit` bytes, then the
 * first `fileField` file part and the first value of each of `fieldNames`. Returns a function, so the use
 * case decides when the upload is read (after its permission check, as the reference does).
 */
export function smallFormUpload(req: Request, res: Response, options: SmallFormOptions): () => Promise<SmallForm> {
  return async () => parseForm(req.headers, await readBody(req, res, options.limit, options.errors.tooLarge), options);
}
