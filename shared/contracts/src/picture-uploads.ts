/**
 * Picture uploads (profile images, bot icons and custom emoji) are multipart bodies larger than the JSON payload cap
 * (`ServiceSettings.MaximumPayloadSizeBytes`), so the gateway and users-bots agree here on which routes
 * take them, how large they may be, and how an oversized one is refused (the route's reference error,
 * 413, whichever of the two notices first).
 */
export const PictureUploadLimits = {
  /** `POST /api/v4/users/{user_id}/image`: the whole multipart body (a phone photo fits). */
  profileImageBytes: 10 * 1024 * 1024,
  /** `POST /api/v4/bots/{bot_user_id}/icon`: the whole multipart body (an SVG icon). */
  botIconBytes: 1024 * 1024,
  /** `POST /api/v4/emoji`: the whole multipart body (the reference's MaxEmojiFileSize, 512 KiB). */
  emojiBytes: 1 << 19,
} as const;

export interface PictureUploadRoute {
  readonly limit: number;
  /** The 413 error of the route. */
  readonly tooLarge: { readonly id: string; readonly message: string };
}

export const PROFILE_IMAGE_UPLOAD: PictureUploadRoute = {
  limit: PictureUploadLimits.profileImageBytes,
  tooLarge: { id: 'api.user.upload_profile_user.too_large.app_error', message: 'Unable to upload profile image. File is too large.' },
};

export const BOT_ICON_UPLOAD: PictureUploadRoute = {
  limit: PictureUploadLimits.botIconBytes,
  tooLarge: { id: 'api.bot.set_bot_icon_image.too_large.app_error', message: 'Unable to update bot icon. File is too large.' },
};

export const EMOJI_UPLOAD: PictureUploadRoute = {
  limit: PictureUploadLimits.emojiBytes,
  tooLarge: { id: 'api.emoji.create.too_large.app_error', message: 'Unable to create emoji. Image must be less than 512 KiB in size.' },
};

const PROFILE_IMAGE = /^\/api\/v4\/users\/[^/]+\/image$/;
const BOT_ICON = /^\/api\/v4\/bots\/[^/]+\/icon$/;

/** The picture upload route a request is (POST only), undefined for every other request. */
export function pictureUploadRoute(method: string, path: string): PictureUploadRoute | undefined {
  if (method !== 'POST') return undefined;
  if (PROFILE_IMAGE.test(path)) return PROFILE_IMAGE_UPLOAD;
  if (BOT_ICON.test(path)) return BOT_ICON_UPLOAD;
  if (path === '/api/v4/emoji') return EMOJI_UPLOAD;
  return undefined;
}

/**
 * `POST /api/v4/files` (mattermost-wire-3.md §1.2): the whole body may be up to `FileSettings.MaxFileSize`
 * + 512 bytes (the reference's request cap), refused over it with the route's 413.
 */
export const FILE_UPLOAD_SLACK_BYTES = 512;
export const FILE_UPLOAD_TOO_LARGE = { id: 'api.file.upload_file.too_large_detailed.app_error', message: 'Unable to upload file. File is too large.' } as const;

/** Whether the request is a file upload (POST /api/v4/files). */
export function isFileUpload(method: string, path: string): boolean {
  return method === 'POST' && path === '/api/v4/files';
}

const FILE_BYTES = /^\/api\/v4\/files\/[^/]+(?:\/thumbnail|\/preview)?$|^\/files\/[^/]+\/public$/;

/**
 * Whether the request reads file bytes (`GET /api/v4/files/{id}`, `/thumbnail`, `/preview`,
 * `/files/{id}/public`): the answer may be as large as MaxFileSize, so it is passed on as a stream.
 */
export function isFileDownload(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && FILE_BYTES.test(path);
}

/**
 * `POST /hooks/{key}` with a multipart body (README "Files on incoming hooks"): it may carry files, so its
 * whole-request cap is the upload's (`MaxFileSize` + 512, or `MaximumPayloadSizeBytes` when that is larger).
 */
export function isHookUpload(method: string, path: string, contentType: string | undefined): boolean {
  return method === 'POST' && /^\/hooks\/[A-Za-z0-9]+$/.test(path) && /^\s*multipart\/form-data\b/i.test(contentType ?? '');
}
