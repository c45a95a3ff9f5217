import { Router } from 'express';
import { PROFILE_IMAGE_UPLOAD } from '@switchyard/contracts';
import { sendJson } from '@switchyard/http-kit';
import { getDefaultProfileImage, getProfileImage } from '../../domain/pictures/get-profile-image.usecase';
import { resetProfileImage } from '../../domain/pictures/reset-profile-image.usecase';
import { setProfileImage } from '../../domain/pictures/set-profile-image.usecase';
import { Errors } from '../../domain/errors';
import { actorOf, requestDeps, userIdParam, type HttpContext } from './http-context';
import { pictureUpload, type UploadErrors } from './picture-upload';
import { sendPicture } from './picture-response';

const IMAGE_ERRORS: UploadErrors = {
  tooLarge: () => Errors.profileImageTooLarge(413),
  parse: Errors.profileImageParse,
  noFile: Errors.profileImageNoFile,
};

/** Profile pictures: `GET/POST/DELETE /users/{user_id}/image` and `GET /users/{user_id}/image/default`. */
export function profileImageRoutes(ctx: HttpContext): Router {
  const router = Router();

  router.get('/api/v4/users/:user_id/image', async (req, res) => {
    const deps = requestDeps(ctx, res);
    sendPicture(req, res, await getProfileImage(deps, actorOf(req), userIdParam(req)));
  });

  router.get('/api/v4/users/:user_id/image/default', async (req, res) => {
    const deps = requestDeps(ctx, res);
    sendPicture(req, res, await getDefaultProfileImage(deps, actorOf(req), userIdParam(req)));
  });

  router.post('/api/v4/users/:user_id/image', async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const userId = userIdParam(req);
    await setProfileImage(deps, actor, userId, pictureUpload(req, res, PROFILE_IMAGE_UPLOAD.limit, IMAGE_ERRORS));
    sendJson(res, 200, { status: 'OK' });
  });

  router.delete('/api/v4/users/:user_id/image', async (req, res) => {
    const deps = requestDeps(ctx, res);
    await resetProfileImage(deps, actorOf(req), userIdParam(req));
    sendJson(res, 200, { status: 'OK' });
  });

  return router;
}
