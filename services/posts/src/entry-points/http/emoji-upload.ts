import busboy from 'busboy';
import type { Request, Response } from 'express';
import { rawBody } from '@switchyard/http-kit';
import { EMOJI_LIMITS, EmojiErrors } from '../../domain/emoji/emoji';
import type { EmojiUpload } from '../../domain/emoji/create-emoji.usecase';

const messageOf = (error: unknown, fallback: string): string => (error instanceof Error ? error.message : fallback);

/** The body within 512 KiB (declared or streamed excess: 413 api.emoji.create.too_large). */
async function readBody(req: Request, res: Response): Promise<Buffer> {
  if (Number(req.headers['content-length'] ?? '0') > EMOJI_LIMITS.fileBytes) {
    req.resume();
    throw EmojiErrors.tooLarge();
  }
  await new Promise<void>((resolve, reject) => {
    rawBody(() => EMOJI_LIMITS.fileBytes, EmojiErrors.tooLarge)(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
  });
  return req.rawBody ?? Buffer.alloc(0);
}

/** The first `emoji` field and the first `image` file part of a multipart/form-data body (busboy). */
function parseForm(headers: Request['headers'], body: Buffer): Promise<EmojiUpload> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers, limits: { files: 4, fields: 20, parts: 40, fieldSize: EMOJI_LIMITS.fileBytes, fileSize: EMOJI_LIMITS.fileBytes } });
    } catch (error) {
      reject(EmojiErrors.parse(messageOf(error, 'not a multipart/form-data body')));
      return;
    }
    let emoji: string | undefined;
    let image: Buffer | undefined;
    parser.on('field', (name, value) => {
      if (name === 'emoji' && emoji === undefined) emoji = value;
    });
    parser.on('file', (name, stream) => {
      // A truncated body errors the part's stream too; without a listener that is an uncaught exception.
      stream.on('error', () => undefined);
      if (name !== 'image' || image !== undefined) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => (image = Buffer.concat(chunks)));
    });
    parser.on('error', (error: unknown) => reject(EmojiErrors.parse(messageOf(error, 'malformed multipart body'))));
    parser.on('close', () => resolve({ ...(emoji !== undefined ? { emoji } : {}), ...(image !== undefined ? { image } : {}) }));
    parser.end(body);
  });
}

/** Reads `POST /emoji`'s form when called (the use case decides when). */
export function emojiUpload(req: Request, res: Response): () => Promise<EmojiUpload> {
  return async () => parseForm(req.headers, await readBody(req, res));
}
