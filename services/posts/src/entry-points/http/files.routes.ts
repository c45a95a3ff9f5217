import { createHash } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { capStream, discardRest, sendJson } from '@switchyard/http-kit';
import { queryFlag, requireIdParam } from '@switchyard/validation';
import type { FilesDeps } from '../../domain/files/files-deps';
import { FileErrors } from '../../domain/files/file-errors';
import { presentFileInfo, type FileInfo } from '../../domain/files/file-info';
import { postFileInfos, readableFile, type FileVariant } from '../../domain/files/read-file.usecase';
import { authorizeUpload, discardAll, uploadFiles, type UploadChannel } from '../../domain/files/upload-files.usecase';
import { readUploadForm, type UploadSink } from './file-upload-body';
import { actorOf, queryValue } from './http-context';
import { sendFileBytes } from './send-file-bytes';

/** The reference's slack on the whole-request cap (MaxFileSize + 512). */
const REQUEST_SLACK = 512;

/** An upload answered before its body was read to the end: the rest is thrown away (bounded, see discardRest). */
function endEarly(req: Request, error: unknown): unknown {
  discardRest(req);
  return error;
}

/** unpadded base64url of SHA-256(salt ‖ file id). */
export function publicLinkHash(salt: string, fileId: string): string {
  return createHash('sha256').update(salt).update(fileId).digest('base64url');
}

/** `/api/v4/files*`, `/files/{id}/public` and `GET /api/v4/posts/{id}/files/info` (mattermost-wire-3.md §1). */
export function filesRoutes(deps: FilesDeps): Router {
  const router = Router();
  const settings = () => deps.liveConfig.current().FileSettings;
  router.post('/api/v4/files', (req, _res, next) => {
    // Refused before the body is read: attachments off.
    if (!settings().EnableFileAttachments) next(FileErrors.attachmentsDisabled());
    else next();
  }, async (req: Request, res: Response) => {
    const actor = actorOf(req);
    const s = settings();
    const queryChannel = queryValue(req, 'channel_id');
    if (queryChannel !== undefined) requireIdParam(queryChannel, 'channel_id');
    const filename = queryValue(req, 'filename');
    const clientId = queryValue(req, 'client_id');
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > s.MaxFileSize + REQUEST_SLACK) throw endEarly(req, FileErrors.tooLarge(filename ?? '', declared, s.MaxFileSize));
    // The body streams through the request cap into staged files (ADR 0029); nothing holds it whole.
    const body = capStream(req, s.MaxFileSize + REQUEST_SLACK, () => FileErrors.tooLarge('', -1, s.MaxFileSize));
    const store = deps.fileStore();
    let channel: UploadChannel | undefined;
    const sink: UploadSink = {
      authorize: async (channelId) => {
        channel = await authorizeUpload(deps, actor, requireIdParam(channelId, 'channel_id'));
      },
      stage: (data, max) => store.stage(data, max),
      discard: (staged) => store.discard(staged),
    };
    try {
      const query = { ...(queryChannel !== undefined ? { channelId: queryChannel } : {}), ...(filename !== undefined ? { filename } : {}), ...(clientId !== undefined ? { clientId } : {}) };
      const form = await readUploadForm(body, req.headers, query, s.MaxFileSize, sink);
      let channelId: string;
      try {
        channelId = requireIdParam(form.channelId, 'channel_id');
      } catch (error) {
        await discardAll(deps, form.files);
        throw error;
      }
      const infos = await uploadFiles(deps, actor, { channelId, files: form.files }, channel);
      const raw = !/^multipart\//i.test(req.headers['content-type'] ?? '');
      sendJson(res, 201, { file_infos: infos.map(presentFileInfo), client_ids: raw && form.clientIds.length === 0 ? null : form.clientIds.filter((c) => c !== '') });
    } catch (error) {
      throw endEarly(req, error);
    }
  });

  const sendBytes = (variant: FileVariant) => async (req: Request, res: Response) => {
    const info = await readableFile(deps, actorOf(req), requireIdParam(req.params.file_id, 'file_id'));
    const download = queryFlag({ download: queryValue(req, 'download') }, 'download');
    await sendFileBytes(deps, req, res, info, variant, download);
  };
  router.get('/api/v4/files/:file_id', sendBytes('file'));
  router.get('/api/v4/files/:file_id/thumbnail', sendBytes('thumbnail'));
  router.get('/api/v4/files/:file_id/preview', sendBytes('preview'));

  router.get('/api/v4/files/:file_id/info', async (req, res) => {
    const info = await readableFile(deps, actorOf(req), requireIdParam(req.params.file_id, 'file_id'));
    res.setHeader('Cache-Control', 'max-age=2592000, private');
    sendJson(res, 200, presentFileInfo(info));
  });

  router.get('/api/v4/files/:file_id/link', async (req, res) => {
    const s = settings();
    if (!s.EnablePublicLink || s.PublicLinkSalt === '') throw FileErrors.publicLinkDisabled();
    const info = await readableFile(deps, actorOf(req), requireIdParam(req.params.file_id, 'file_id'));
    if (info.post_id === '') throw FileErrors.publicLinkNoPost();
    const site = `${req.protocol}://${req.get('host') ?? ''}`;
    sendJson(res, 200, { link: `${site}/files/${info.id}/public?h=${publicLinkHash(s.PublicLinkSalt, info.id)}` });
  });

  router.get('/files/:file_id/public', async (req, res) => {
    const s = settings();
    if (!s.EnablePublicLink || s.PublicLinkSalt === '') throw FileErrors.publicLinkDisabled();
    const fileId = requireIdParam(req.params.file_id, 'file_id');
    const hash = queryValue(req, 'h') ?? '';
    const expected = publicLinkHash(s.PublicLinkSalt, fileId);
    if (hash.length !== expected.length || hash !== expected) throw FileErrors.publicInvalid();
    const info: FileInfo | undefined = await deps.files.findById(fileId);
    if (!info || info.delete_at !== 0) throw FileErrors.notFound();
    await sendFileBytes(deps, req, res, info, 'file', false);
  });

  router.get('/api/v4/posts/:post_id/files/info', async (req, res) => {
    const infos = await postFileInfos(deps, actorOf(req), requireIdParam(req.params.post_id, 'post_id'));
    res.setHeader('Cache-Control', 'max-age=2592000, private');
    sendJson(res, 200, infos.map(presentFileInfo));
  });
  return router;
}
