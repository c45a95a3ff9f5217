import { applyTransform, transformRequestOf } from '../../domain/transform/apply-transform.usecase';
import { templateOf } from '../../domain/transform/templates';
import type { WebhookRequest } from '../../domain/ingest/webhook-request';
import type { Deps, HookFile } from '../../domain/ports';
import type { FileLimits } from './hook-multipart';
import { decodeWebhookBody, mediaTypeOf, webhookRequestFrom } from './webhook-payload';

/** A vendor event the hook's `only_events` / `exclude_events` leave out: answered `ok`, nothing posted. */
export const FILTERED = Symbol('filtered by the hook\'s event filters');

type Headers = Record<string, string | string[] | undefined>;

export interface DecodedHookRequest {
  readonly request: WebhookRequest | null;
  /** A multipart request's `files` parts (README "Files on incoming hooks"); none through a transform. */
  readonly files?: readonly HookFile[];
  /** Who the posts are made as, when not the hook's owner (a built-in integration's bot). */
  readonly postAs?: { readonly userId: string; readonly isBot: boolean };
}

/**
 * The request a `POST /hooks/{key}` carries: a Slack-style body as the reference decodes it, or, when the
 * hook has a transform (spec "Hook transform"), the vendor's payload through it; the result is then
 * checked exactly as a Slack-style JSON body. Unknown and deleted hooks decode as before (the intake
 * refuses them in the reference's order). The hook read is the repository's short read cache.
 */
export async function decodeHookRequest(deps: Pick<Deps, 'hooks' | 'transforms' | 'users'>, key: string, headers: Headers, raw: Buffer, query: string, maxBytes: number, fileLimits: FileLimits): Promise<DecodedHookRequest | typeof FILTERED> {
  const hook = await deps.hooks.findById(key);
  const contentType = headers['content-type'];
  const request = hook && hook.deleteAt === 0
    ? transformRequestOf(hook, { headers, body: { raw, mediaType: mediaTypeOf(Array.isArray(contentType) ? contentType[0] : contentType) }, query, maxOutputBytes: maxBytes })
    : undefined;
  if (!request) return decodeWebhookBody(headers, raw, query, maxBytes, fileLimits);
  const outcome = await applyTransform(deps.transforms, request);
  if (outcome.filtered) return FILTERED;
  const decoded = webhookRequestFrom(outcome.post);
  // A built-in integration posts as its own bot (or the ordinary user holding its name); the hook's owner still decides channel and lock.
  const bot = 'template' in request.transform ? templateOf(request.transform.template)?.bot : undefined;
  if (!bot) return { request: decoded };
  return { request: decoded, postAs: await deps.users.integrationSender(bot.username) };
}
