import type { Request, Response } from 'express';
import type { AppError } from '@switchyard/errors';
import { smallFormUpload } from '@switchyard/http-kit';

/** How one picture route words its refusals (the reference has one set of ids per route). */
export interface UploadErrors {
  readonly tooLarge: () => AppError;
  readonly parse: (detail: string) => AppError;
  readonly noFile: () => AppError;
}

/**
 * Reads a picture upload: the body within `limit` bytes, then the `image` file part of the multipart
 * form (a form without one is the route's noFile). Returns a function, so the use case decides when the
 * upload is read (after its permission check, as the reference does).
 */
export function pictureUpload(req: Request, res: Response, limit: number, errors: UploadErrors): () => Promise<Buffer> {
  const read = smallFormUpload(req, res, { limit, fileField: 'image', errors });
  return async () => {
    const { file } = await read();
    if (file === undefined) throw errors.noFile();
    return file;
  };
}
