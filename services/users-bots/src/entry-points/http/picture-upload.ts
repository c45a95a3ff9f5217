import busboy from 'busboy';
import type { Request, Response } from 'express';
import type { AppError } from '@switchyard/errors';
import { rawBody } from '@switchyard/http-kit';

/** How one picture route words its refusals (the reference has one set of ids per route). */
export interface UploadErrors {
  readonly tooLarge: () => AppError;
  readonly parse: (detail: string) => AppError;
  readonly noFile: () => AppError;
}

/** The body, read within `limit` bytes: a declared or streamed excess is the route's too_large (413). */
async function readBody(req: Request, res: Response, limit: number, errors: UploadErrors): Promise<Buffer> {
  if (Number(req.headers['content-length'] ?? '0') > limit) {
    req.resume();
    throw errors.tooLarge();
  }
  await new Promise<void>((resolve, reject) => {
    rawBody(() => limit, errors.tooLarge)(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
  });
  return req.rawBody ?? Buffer.alloc(0);
}

/** The first file part named `image` of a multipart/form-data body (busboy), or the route's 400s. */
function imagePart(headers: Request['headers'], body: Buffer, limit: number, errors: UploadErrors): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers, limits: { files: 1, fields: 20, parts: 40, fileSize: limit } });
    } catch (error) {
      reject(errors.parse(error instanceof Error ? error.message : 'not a multipart/form-data body'));
      return;
    }
    let image: Buffer | undefined;
    let truncated = false;
    parser.on('file', (name, stream) => {
      // A truncated body ("Unexpected end of form") errors the part's stream too; without a listener that
      // is an uncaught exception in the service. The parser's own error answers the request.
      stream.on('error', () => undefined);
      if (name !== 'image' || image !== undefined) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => (truncated = true));
      stream.on('end', () => (image = Buffer.concat(chunks)));
    });
    parser.on('error', (error: unknown) => reject(errors.parse(error instanceof Error ? error.message : 'malformed multipart body')));
    parser.on('close', () => {
      if (truncated) reject(errors.tooLarge());
      else if (image === undefined) reject(errors.noFile());
      else resolve(image);
    });
    parser.end(body);
  });
}

/**
 * Reads a picture upload: the body within `limit` bytes, then the `image` file part of the multipart
 * form. Returns a function, so the use case decides when the upload is read (after its permission check,
 * as the reference does).
 */
export function pictureUpload(req: Request, res: Response, limit: number, errors: UploadErrors): () => Promise<Buffer> {
  return async () => imagePart(req.headers, await readBody(req, res, limit, errors), limit, errors);
}
