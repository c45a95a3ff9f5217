import { Router } from 'express';
import { commonErrors } from '@switchyard/errors';
import { sendJson } from '@switchyard/http-kit';
import { validate } from '@switchyard/validation';
import { isAdmin } from '../../domain/authorization';
import { patchUser, type UserPatchInput } from '../../domain/users/patch-user.usecase';
import { updateUser, type UserUpdateInput } from '../../domain/users/update-user.usecase';
import { actorOf, requestDeps, userIdParam, type HttpContext } from './http-context';
import { presentUser } from './presenters';
import { userPatchBody, userUpdateBody, type UserPatchBody, type UserUpdateBody } from './user-patch.schemas';

/** The body's fields that are set (a `null` one is absent, as the reference's nil pointers and maps). */
function patchInputOf(body: UserPatchBody | null): UserPatchInput {
  if (body === null) return {};
  const set = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null;
  return {
    ...(set(body.username) ? { username: body.username } : {}),
    ...(set(body.password) ? { password: body.password } : {}),
    ...(set(body.nickname) ? { nickname: body.nickname } : {}),
    ...(set(body.first_name) ? { firstName: body.first_name } : {}),
    ...(set(body.last_name) ? { lastName: body.last_name } : {}),
    ...(set(body.position) ? { position: body.position } : {}),
    ...(set(body.email) ? { email: body.email } : {}),
    ...(set(body.props) ? { props: body.props } : {}),
    ...(set(body.notify_props) ? { notifyProps: body.notify_props } : {}),
    ...(set(body.locale) ? { locale: body.locale } : {}),
    ...(set(body.timezone) ? { timezone: body.timezone } : {}),
  };
}

/** The full User body as the reference decodes it: an absent or null string is '', an absent or null map is not given. */
function updateInputOf(body: UserUpdateBody): UserUpdateInput {
  const str = (value: string | null | undefined): string => value ?? '';
  return {
    id: str(body.id),
    username: str(body.username),
    password: str(body.password),
    nickname: str(body.nickname),
    firstName: str(body.first_name),
    lastName: str(body.last_name),
    position: str(body.position),
    email: str(body.email),
    locale: str(body.locale),
    ...(body.props ? { props: body.props } : {}),
    ...(body.notify_props ? { notifyProps: body.notify_props } : {}),
    ...(body.timezone ? { timezone: body.timezone } : {}),
  };
}

/**
 * `PUT /users/{user_id}/patch` (the reference's UserPatch) and `PUT /users/{user_id}` (a whole User): the routes clients and
 * bots change a user's profile and notify props with; both answer the user as its owner sees it.
 */
export function userPatchRoutes(ctx: HttpContext): Router {
  const router = Router();
  router.put('/api/v4/users/:user_id', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const userId = userIdParam(req);
    const body = validate(userUpdateBody, req.body, { onError: () => commonErrors.invalidBodyParam('user') }) as UserUpdateBody;
    const view = await updateUser(deps, actor, userId, updateInputOf(body));
    sendJson(res, 200, presentUser(view, { self: true, admin: isAdmin(actor), config: ctx.deps.liveConfig.current() }));
  });
  router.put('/api/v4/users/:user_id/patch', ...ctx.withBody, async (req, res) => {
    const deps = requestDeps(ctx, res);
    const actor = actorOf(req);
    const userId = userIdParam(req);
    // Any body the reference's decoder refuses (not an object, a field of the wrong type) is its invalid `user`.
    const body = validate(userPatchBody, req.body, { onError: () => commonErrors.invalidBodyParam('user') }) as UserPatchBody | null;
    const view = await patchUser(deps, actor, userId, patchInputOf(body));
    // The reference answers the updated user sanitised as for its owner (notify props and email shown), whoever asked.
    sendJson(res, 200, presentUser(view, { self: true, admin: isAdmin(actor), config: ctx.deps.liveConfig.current() }));
  });
  return router;
}
