import { badRequest, forbidden, notFound, notImplemented, payloadTooLarge, type AppError } from '@switchyard/errors';

/** A custom emoji as the reference stores and answers it (`model.Emoji`). */
export interface Emoji {
  readonly id: string;
  readonly create_at: number;
  readonly update_at: number;
  readonly delete_at: number;
  readonly creator_id: string;
  readonly name: string;
}

/** The reference's limits (app/emoji.go): the upload body, the largest accepted image, the stored size. */
export const EMOJI_LIMITS = {
  /** `MaxEmojiFileSize`: 512 KiB (1 MiB before v9). */
  fileBytes: 1 << 19,
  /** Images wider or taller than this are refused (`MaxEmojiOriginalWidth/Height`). */
  originalSide: 1028,
  /** Larger images are scaled down to fit this box (`MaxEmojiWidth/Height`). */
  side: 128,
  nameLength: 64,
} as const;

/** `IsValidAlphaNumHyphenUnderscorePlus`, at most 64 characters. */
export const EMOJI_NAME = /^[a-zA-Z0-9_+-]{1,64}$/;

/** The image of an emoji in the file store (the reference's path; deleted ones are renamed to `image_deleted`). */
export const emojiImageKey = (id: string): string => `emoji/${id}/image`;
export const deletedEmojiImageKey = (id: string): string => `emoji/${id}/image_deleted`;

/** The reference's error ids of the emoji routes. */
export const EmojiErrors = {
  disabled501: (): AppError => notImplemented('api.emoji.disabled.app_error', 'Custom emoji have been disabled by the system admin.'),
  disabled403: (): AppError => forbidden('api.emoji.disabled.app_error', 'Custom emoji have been disabled by the system admin.'),
  tooLarge: (): AppError => payloadTooLarge('api.emoji.create.too_large.app_error', 'Unable to create emoji. Image must be less than 512 KiB in size.'),
  parse: (detail = ''): AppError => badRequest('api.emoji.create.parse.app_error', 'Unable to create emoji. Could not understand request.', { detailedError: detail }),
  name: (): AppError => badRequest('model.emoji.name.app_error', 'Name must be between 1 and 64 lowercase alphanumeric characters.'),
  systemName: (): AppError => badRequest('model.emoji.system_emoji_name.app_error', 'Name conflicts with existing system emoji name.'),
  creatorId: (): AppError => badRequest('model.emoji.user_id.app_error', 'Invalid creator id.'),
  otherUser: (): AppError => forbidden('api.emoji.create.other_user.app_error', 'Invalid user id'),
  duplicate: (): AppError => badRequest('api.emoji.create.duplicate.app_error', 'Unable to create emoji. Another emoji with the same name already exists.'),
  image: (detail = ''): AppError => badRequest('api.emoji.upload.image.app_error', 'Unable to create emoji. File must be a PNG, JPEG, or GIF.', { detailedError: detail }),
  imageTooLarge: (): AppError =>
    badRequest('api.emoji.upload.large_image.too_large.app_error', `Unable to create emoji. Image must be at most ${EMOJI_LIMITS.originalSide} by ${EMOJI_LIMITS.originalSide} pixels.`),
  imageDecode: (detail = ''): AppError => badRequest('api.emoji.upload.large_image.decode_error', 'Unable to create emoji. An error occurred when trying to decode the image.', { detailedError: detail }),
  notFound: (): AppError => notFound('app.emoji.get.no_result', 'Unable to find the emoji.'),
  nameNotFound: (): AppError => notFound('app.emoji.get_by_name.no_result', 'Unable to find the emoji.'),
  deleteNotFound: (): AppError => notFound('app.emoji.delete.no_results', 'We couldn’t find the emoji to delete.'),
  imageRead: (): AppError => notFound('api.emoji.get_image.read.app_error', 'Unable to read image file for emoji.'),
  tooManyNames: (max: number): AppError => badRequest('api.emoji.get_multiple_by_name_too_many.request_error', `Unable to get that many emojis by name. Only ${max} emojis can be requested at once.`),
};

/** The JSON of an emoji (the reference has no omitempty fields on it). */
export function presentEmoji(emoji: Emoji): Record<string, unknown> {
  return { id: emoji.id, create_at: emoji.create_at, update_at: emoji.update_at, delete_at: emoji.delete_at, creator_id: emoji.creator_id, name: emoji.name };
}
