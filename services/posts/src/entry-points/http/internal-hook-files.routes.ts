import { Router } from 'express';
import { FILE_UPLOAD_SLACK_BYTES, PostsInternalPaths, Services } from '@switchyard/contracts';
import { commonErrors } from '@switchyard/errors';
import { capStream, discardRest, sendJson, serviceOnly } from '@switchyard/http-kit';
import { isValidId } from '@switchyard/ids';
import { Joi, requireIdParam, validate } from '@switchyard/validation';
import { FileErrors } from '../../domain/files/file-errors';
import { MAX_FILES_PER_POST, presentFileInfo } from '../../domain/files/file-info';
import type { FilesDeps } from '../../domain/files/files-deps';
import { discardAll, uploadFiles } from '../../domain/files/upload-files.usecase';
import { discardUnattachedFiles } from '../../domain/files/discard-files';
import { Errors } from '../../domain/errors';
import { readUploadForm, type UploadSink } from './file-upload-body';
import { queryValue, type HttpContext } from './http-context';

const discardBody = Joi.object({
  user_id: Joi.string().length(26).required(),
  file_ids: Joi.array().items(Joi.string().max(64)).max(MAX_FILES_PER_POST).required(),
});

/**
 * The files of an incoming hook's post (README "Files on incoming hooks"), for incoming-hooks only (never
 * routed by the gateway): uploaded as the post's author into the channel the hook's checks chose (the
 * hook's key is the credential, as for its text), with every limit of `POST /files` (under the ids the
 * caller gives, when it gives them: a retry stores no second copy); and discarded again
 * when posts then refused the post, so a refused hook request leaves no file behind.
 */
export function internalHookFilesRoutes(ctx: HttpContext, deps: FilesDeps): Router {
  const router = Router();
  const only = serviceOnly(ctx.internalSecret, [Services.incomingHooks]);
  const settings = () => deps.liveConfig.current().FileSettings;

  router.post(PostsInternalPaths.hookFiles, only, async (req, res) => {
    try {
      const s = settings();
      if (!s.EnableFileAttachments) throw FileErrors.attachmentsDisabled();
      if (s.DriverName === '') throw FileErrors.storageDisabled();
      const channelId = requireIdParam(queryValue(req, 'channel_id'), 'channel_id');
      const userId = queryValue(req, 'user_id');
      if (userId === undefined || !isValidId(userId)) throw commonErrors.invalidUrlParam('user_id');
      // A retried hook request (same Idempotency-Key) names the ids of its first try: no second copy is stored.
      const fileIds = queryValue(req, 'file_ids')?.split(',');
      if (fileIds && (fileIds.length > MAX_FILES_PER_POST || !fileIds.every(isValidId))) throw commonErrors.invalidUrlParam('file_ids');
      const channel = await deps.channels.findById(channelId);
      if (!channel) throw Errors.channelNotFound();
      // Streamed as POST /files is (staged files, never held whole); the hook's checks chose the channel, so no upload_file here.
      const body = capStream(req, s.MaxFileSize + FILE_UPLOAD_SLACK_BYTES, () => FileErrors.tooLarge('', -1, s.MaxFileSize));
      const store = deps.fileStore();
      const sink: UploadSink = { authorize: async () => undefined, stage: (data, max) => store.stage(data, max), discard: (staged) => store.discard(staged) };
      const form = await readUploadForm(body, req.headers, { channelId }, s.MaxFileSize, sink);
      if (form.files.length > MAX_FILES_PER_POST) {
        await discardAll(deps, form.files);
        throw Errors.postFileIds();
      }
      const infos = await uploadFiles(deps, { userId, roles: '', isBot: false }, { channelId, files: form.files, ...(fileIds ? { fileIds } : {}) }, channel);
      sendJson(res, 201, { file_infos: infos.map(presentFileInfo) });
    } catch (error) {
      discardRest(req);
      throw error;
    }
  });

  router.post(PostsInternalPaths.discardHookFiles, only, ...ctx.withBody, async (req, res) => {
    const { user_id: userId, file_ids: ids } = validate(discardBody, req.body) as { user_id: string; file_ids: string[] };
    const discarded = await discardUnattachedFiles(deps, userId, ids);
    sendJson(res, 200, { discarded });
  });
  return router;
}
