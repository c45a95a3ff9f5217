import { badRequest, notFound, notImplemented, payloadTooLarge, internalError, type AppError } from '@switchyard/errors';

/** The reference's error ids for files (mattermost-wire-3.md §1). */
export const FileErrors = {
  attachmentsDisabled: (): AppError => notImplemented('api.file.attachments.disabled.app_error', 'File attachments have been disabled on this server.'),
  readRequest: (detail = ''): AppError => badRequest('api.file.upload_file.read_request.app_error', 'Unable to upload file(s). Error reading or parsing request data.', { detailedError: detail }),
  storageDisabled: (): AppError => notImplemented('api.file.upload_file.storage.app_error', 'Unable to upload file. Image storage is not configured.'),
  tooLarge: (filename: string, length: number, limit: number): AppError =>
    payloadTooLarge('api.file.upload_file.too_large_detailed.app_error', `Unable to upload file ${filename}. ${length} bytes exceeds the maximum allowed ${limit} bytes.`, {
      detailedError: `Filename=${filename}, Length=${length}, Limit=${limit}`,
    }),
  largeImage: (filename: string, dimensions: string, limit: number): AppError =>
    badRequest('api.file.upload_file.large_image_detailed.app_error', `${filename} dimensions (${dimensions} pixels) exceed the limits.`, { detailedError: `Limit=${limit}` }),
  badImage: (filename: string, detail: string): AppError => badRequest('api.file.upload_file.image_invalid.app_error', `Unable to upload file ${filename}: the image cannot be decoded.`, { detailedError: detail }),
  badName: (detail: string): AppError => badRequest('api.file.upload_file.bad_name.app_error', 'Unable to upload file. The file name is not valid.', { detailedError: detail }),
  emptyFile: (filename: string): AppError => badRequest('api.file.upload_file.empty.app_error', `Unable to upload file ${filename}: it is empty.`),
  multipleChannelIds: (): AppError => badRequest('api.file.upload_file.multiple_channel_ids.app_error', 'Unable to upload file(s). Multiple conflicting channel_ids.'),
  clientIdCount: (clientIds: number, files: number): AppError =>
    badRequest('api.file.upload_file.incorrect_number_of_client_ids.app_error', `Unable to upload file(s). Have ${clientIds} client_ids for ${files} files.`, {
      detailedError: `NumClientIds=${clientIds}, NumFiles=${files}`,
    }),
  tooManyParts: (): AppError => badRequest('api.file.upload_file.read_request.app_error', 'Unable to upload file(s). Error reading or parsing request data.', { detailedError: 'too many parts' }),
  notFound: (): AppError => notFound('app.file_info.get.app_error', 'Unable to get the file info.'),
  noThumbnail: (): AppError => badRequest('api.file.get_file_thumbnail.no_thumbnail.app_error', 'File doesn\'t have a thumbnail image.'),
  noPreview: (): AppError => badRequest('api.file.get_file_preview.no_preview.app_error', 'File doesn\'t have a preview image.'),
  publicLinkDisabled: (): AppError => notImplemented('api.file.get_public_link.disabled.app_error', 'Public links have been disabled.'),
  publicLinkNoPost: (): AppError => badRequest('api.file.get_public_link.no_post.app_error', 'Unable to get public link for file. File must be attached to a post that can be read by the current user.'),
  publicInvalid: (): AppError => badRequest('api.file.get_file.public_invalid.app_error', 'The public link does not appear to be valid.'),
  blobMissing: (): AppError => notFound('api.file.file_reader.app_error', 'Unable to read the file from storage.'),
  saveFailed: (detail: string): AppError => internalError('app.file_info.save.app_error', 'Unable to save the file info.', { detailedError: detail }),
};
