import { applyTransform, transformRequestOf, type TransformRequest } from '../../domain/transform/apply-transform.usecase';
import { templateOf } from '../../domain/transform/templates';
import type { WebhookRequest } from '../../domain/ingest/webhook-request';
import type { Deps, HookFile } from '../../domain/ports';
import { transformMultipart } from './hook-multipart';
import { decodeWebhookBody, mediaTypeOf, webhookRequestFrom, type HookBody } from './webhook-payload';

/** A vendor event the hook's `only_events` / `exclude_events` leave out: answered `ok`, nothing posted. */
export const FILTERED = Symbol('filtered by the hook\'s event filters');

type Headers = Record<string, string | string[] | undefined>;

export interface DecodedHookRequest {
  readonly request: WebhookRequest | null;
  /** A multipart request's `files` parts (README "Files on incoming hooks"), with or without a transform. */
  readonly files?: readonly HookFile[];
  /** Who the posts are made as, when not the hook's owner (a built-in integration's bot). */
  readonly postAs?: { readonly userId: string; readonly isBot: boolean };
}

/**
 * The request a `POST /hooks/{key}` carries: a Slack-style body as the reference decodes it, or, when the
 * hook has a transform (spec "Hook transform"), the vendor's payload through it; the result is then
 * checked exactly as a Slack-style JSON body. A multipart request to a transform hook gives the transform
 * its `payload` part, and its `files` parts go on the transformed post (the vendor's signature is checked
 * over the whole body as received). Unknown and deleted hooks decode as before (the intake refuses them in
 * the reference's order). The hook read is the repository's short read cache.
 */
export async function decodeHookRequest(deps: Pick<Deps, 'hooks' | 'transforms' | 'users'>, key: string, headers: Headers, body: HookBody, query: string, maxBytes: number): Promise<DecodedHookRequest | typeof FILTERED> {
  const hook = await deps.hooks.findById(key);
  if (!hook || hook.deleteAt !== 0 || !hook.transform) return decodeWebhookBody(headers, body, query);
  let files: readonly HookFile[] = [];
  let vendorBody: TransformRequest['body'];
  if ('form' in body) {
    const part = transformMultipart(body.form);
    files = part.files;
    vendorBody = { raw: Buffer.from(part.payload, 'utf8'), mediaType: 'application/json', ...(body.signedHmacHex !== undefined ? { signedHmacHex: body.signedHmacHex } : {}) };
  } else {
    const contentType = headers['content-type'];
    vendorBody = { raw: body.raw, mediaType: mediaTypeOf(Array.isArray(contentType) ? contentType[0] : contentType) };
  }
  const request = transformRequestOf(hook, { headers, body: vendorBody, query, maxOutputBytes: maxBytes });
  if (!request) return decodeWebhookBody(headers, body, query);
  const outcome = await applyTransform(deps.transforms, request);
  if (outcome.filtered) return FILTERED;
  const decoded = webhookRequestFrom(outcome.post);
  // A built-in integration posts as its own bot (or the ordinary user holding its name); the hook's owner still decides channel and lock.
  const bot = 'template' in request.transform ? templateOf(request.transform.template)?.bot : undefined;
  if (!bot) return { request: decoded, files };
  return { request: decoded, files, postAs: await deps.users.integrationSender(bot.username) };
}
