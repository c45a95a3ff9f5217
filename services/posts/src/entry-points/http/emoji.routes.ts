import { Router, type Request } from 'express';
import { badRequest, commonErrors } from '@switchyard/errors';
import { requireIdentity, sendJson, sendStatusOk } from '@switchyard/http-kit';
import { Joi, parseJsonBody, requireIdParam, validate } from '@switchyard/validation';
import { createEmoji } from '../../domain/emoji/create-emoji.usecase';
import { deleteEmoji } from '../../domain/emoji/delete-emoji.usecase';
import { EMOJI_NAME, EmojiErrors, presentEmoji } from '../../domain/emoji/emoji';
import { customEmojiEnabled, type EmojiDeps } from '../../domain/emoji/emoji-deps';
import {
  EMOJI_AUTOCOMPLETE_LIMIT,
  EMOJI_SEARCH_LIMIT,
  getEmoji,
  getEmojiByName,
  getEmojiImage,
  getEmojisByNames,
  listEmoji,
  searchEmoji,
} from '../../domain/emoji/read-emoji.usecase';
import type { HttpContext } from './http-context';
import { actorOf, paging, queryValue } from './http-context';
import { emojiUpload } from './emoji-upload';

/** Terms and names longer than any emoji name match nothing; they are cut (bounded work). */
const MAX_TERM = 200;

const searchBody = Joi.object({ term: Joi.string().allow('').max(100_000), prefix_only: Joi.boolean().strict() }).unknown(true);

const payloadParse = () => badRequest('api.payload.parse.error', 'Error parsing the request body.');

function jsonOf(req: Request, onError: () => Error): unknown {
  try {
    return req.rawBody && req.rawBody.length > 0 ? parseJsonBody(req.rawBody) : undefined;
  } catch {
    throw onError();
  }
}

/**
 * Custom emoji (mattermost-wire-3.md §3.9, the reference's api4/emoji.go): create (multipart `emoji` JSON +
 * `image`), list, by id, by name, by names, image, delete, search and autocomplete. With EnableCustomEmoji
 * off the routes that check it first answer 501, the others the app-level 403, as the reference.
 */
export function emojiRoutes(ctx: HttpContext, deps: EmojiDeps): Router {
  const router = Router();
  const [readBody] = ctx.withBody;
  const require501 = (req: Request): void => {
    requireIdentity(req);
    if (!customEmojiEnabled(deps)) throw EmojiErrors.disabled501();
  };

  router.post('/api/v4/emoji', async (req, res) => {
    require501(req);
    const emoji = await createEmoji(deps, actorOf(req), emojiUpload(req, res));
    sendJson(res, 200, presentEmoji(emoji));
  });

  router.get('/api/v4/emoji', async (req, res) => {
    require501(req);
    const sort = queryValue(req, 'sort') ?? '';
    if (sort !== '' && sort !== 'name') throw commonErrors.invalidUrlParam('sort');
    const { page, perPage } = paging(req);
    sendJson(res, 200, (await listEmoji(deps, page, perPage, sort === 'name')).map(presentEmoji));
  });

  if (readBody) {
    router.post('/api/v4/emoji/names', readBody, async (req, res) => {
      requireIdentity(req);
      // As SortedArrayFromJSON: no body or a non-array is the parse error; `null` is an empty list.
      const body = jsonOf(req, payloadParse);
      if (body === undefined || (body !== null && !(Array.isArray(body) && body.every((n) => typeof n === 'string')))) throw payloadParse();
      const names = (body ?? []) as string[];
      if (names.length === 0) throw commonErrors.invalidBodyParam('names');
      if (!customEmojiEnabled(deps)) throw EmojiErrors.disabled501();
      sendJson(res, 200, (await getEmojisByNames(deps, names)).map(presentEmoji));
    });

    router.post('/api/v4/emoji/search', readBody, async (req, res) => {
      requireIdentity(req);
      const raw = jsonOf(req, () => commonErrors.invalidBodyParam('term'));
      if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw commonErrors.invalidBodyParam('term');
      const body = validate(searchBody, raw, { onError: (_key, detail) => commonErrors.invalidBodyParam('term', detail) }) as { term?: string; prefix_only?: boolean };
      if (!body.term) throw commonErrors.invalidBodyParam('term');
      sendJson(res, 200, (await searchEmoji(deps, body.term.slice(0, MAX_TERM), body.prefix_only === true, EMOJI_SEARCH_LIMIT)).map(presentEmoji));
    });
  }

  router.get('/api/v4/emoji/autocomplete', async (req, res) => {
    requireIdentity(req);
    const name = queryValue(req, 'name') ?? '';
    if (name === '') throw commonErrors.invalidUrlParam('name');
    sendJson(res, 200, (await searchEmoji(deps, name.slice(0, MAX_TERM), true, EMOJI_AUTOCOMPLETE_LIMIT)).map(presentEmoji));
  });

  router.get('/api/v4/emoji/name/:emoji_name', async (req, res) => {
    requireIdentity(req);
    const name = req.params.emoji_name ?? '';
    if (!EMOJI_NAME.test(name)) throw commonErrors.invalidUrlParam('emoji_name');
    require501(req);
    sendJson(res, 200, presentEmoji(await getEmojiByName(deps, name)));
  });

  router.get('/api/v4/emoji/:emoji_id', async (req, res) => {
    requireIdentity(req);
    const id = requireIdParam(req.params.emoji_id, 'emoji_id');
    require501(req);
    sendJson(res, 200, presentEmoji(await getEmoji(deps, id)));
  });

  router.delete('/api/v4/emoji/:emoji_id', async (req, res) => {
    requireIdentity(req);
    const id = requireIdParam(req.params.emoji_id, 'emoji_id');
    await deleteEmoji(deps, actorOf(req), id);
    sendStatusOk(res);
  });

  router.get('/api/v4/emoji/:emoji_id/image', async (req, res) => {
    requireIdentity(req);
    const id = requireIdParam(req.params.emoji_id, 'emoji_id');
    require501(req);
    const image = await getEmojiImage(deps, id);
    res.status(200);
    res.setHeader('Content-Type', `image/${image.format}`);
    res.setHeader('Cache-Control', 'max-age=2592000, private');
    res.setHeader('Content-Length', image.data.length);
    res.end(image.data);
  });

  return router;
}
