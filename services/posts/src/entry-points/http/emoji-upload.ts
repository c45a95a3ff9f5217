import type { Request, Response } from 'express';
import { smallFormUpload } from '@switchyard/http-kit';
import { EMOJI_LIMITS, EmojiErrors } from '../../domain/emoji/emoji';
import type { EmojiUpload } from '../../domain/emoji/create-emoji.usecase';

/**
 * Reads `POST /emoji`'s form when called (the use case decides when): the body within 512 KiB (declared or
 * streamed excess: 413 api.emoji.create.too_large), the first `emoji` field and the first `image` file part.
 */
export function emojiUpload(req: Request, res: Response): () => Promise<EmojiUpload> {
  const read = smallFormUpload(req, res, {
    limit: EMOJI_LIMITS.fileBytes,
    fileField: 'image',
    fieldNames: ['emoji'],
    maxFiles: 4,
    errors: { tooLarge: EmojiErrors.tooLarge, parse: EmojiErrors.parse },
  });
  return async () => {
    const { fields, file } = await read();
    const emoji = fields.get('emoji');
    return { ...(emoji !== undefined ? { emoji } : {}), ...(file !== undefined ? { image: file } : {}) };
  };
}
