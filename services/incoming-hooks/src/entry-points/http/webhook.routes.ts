import { createHmac } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { FILE_UPLOAD_SLACK_BYTES, isHookUpload } from '@switchyard/contracts';
import { commonErrors, isAppError, toWireError } from '@switchyard/errors';
import { capStream, discardRest, rawBody } from '@switchyard/http-kit';
import { intakeMetrics } from '@switchyard/metrics';
import type { StoredResponse } from '../../domain/entities';
import { ingestWebhook, type IngestOutcome } from '../../domain/ingest/ingest-webhook.usecase';
import type { WebhookRequest } from '../../domain/ingest/webhook-request';
import { Errors } from '../../domain/errors';
import type { HttpContext } from './http-context';
import { DEFAULT_HOOK_SPOOL_DIR, readHookForm, release, type FileLimits } from './hook-form';
import { decodeHookRequest, FILTERED } from './transform-intake';
import { mediaTypeOf, type HookBody } from './webhook-payload';

const HOOK_KEY = /^[A-Za-z0-9]+$/;
const TRUE_VALUES = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);

/** Only the first characters of a key reach a log line: the key is the hook's secret. */
export const hookRef = (key: string): string => (key.length > 6 ? `${key.slice(0, 6)}…` : '…');

/** The path `webhookRoute` answers (mounted on the app itself: one router less per hook). */
export const WEBHOOK_PATH = '/hooks/:key';

const EMPTY_BODY = Buffer.alloc(0);
/** The body limit travels on the request: the route read it from the config snapshot it works with. */
const BODY_LIMIT = Symbol('webhook body limit');
const BODY_TOO_LARGE = Symbol('webhook body too large');
type LimitedRequest = Request & { [BODY_LIMIT]?: number; [BODY_TOO_LARGE]?: () => Error };
const readRawBody = rawBody(
  (req) => (req as LimitedRequest)[BODY_LIMIT] ?? 0,
  (req) => (req as LimitedRequest)[BODY_TOO_LARGE]?.() ?? commonErrors.bodyTooLarge(),
);

/** The most files one hook post carries: the reference's per-post count (mattermost-wire-3.md §1.5). */
export const MAX_HOOK_FILES = 10;

/**
 * The whole-request cap: `MaximumPayloadSizeBytes`, and for a multipart request to a live hook with
 * attachments on (it may carry files) the upload's `MaxFileSize` + 512 when larger, answered with the
 * upload's 413 id (as `POST /files`). An unknown key never gets more than a JSON body's cap.
 */
async function bodyCap(deps: HttpContext['deps'], key: string, req: Request, config: ReturnType<HttpContext['deps']['liveConfig']['current']>): Promise<{ limit: number; tooLarge?: () => Error }> {
  const payload = config.ServiceSettings.MaximumPayloadSizeBytes;
  if (!isHookUpload(req.method, req.path, req.headers['content-type']) || !config.FileSettings.EnableFileAttachments) return { limit: payload };
  const upload = config.FileSettings.MaxFileSize + FILE_UPLOAD_SLACK_BYTES;
  if (upload <= payload) return { limit: payload };
  const hook = await deps.hooks.findById(key);
  if (!hook || hook.deleteAt !== 0) return { limit: payload };
  return { limit: upload, tooLarge: () => Errors.fileTooLarge('', config.FileSettings.MaxFileSize) };
}

/** A multipart body (mediaTypeOf's reading; a malformed header is answered by the raw path's decoding). */
function isMultipart(req: Request): boolean {
  try {
    return mediaTypeOf(req.headers['content-type']) === 'multipart/form-data';
  } catch {
    return false;
  }
}

/**
 * A multipart body, parsed as it streams (never held whole, ADR 0029): capped at `cap`, its file parts
 * spooled to local files; for a live hook with a signing secret, the HMAC of every byte is made on the way.
 */
async function streamForm(ctx: HttpContext, key: string, req: Request, cap: { limit: number; tooLarge?: () => Error }, limits: FileLimits, maxFieldBytes: number): Promise<HookBody> {
  const tooLarge = cap.tooLarge ?? (() => commonErrors.bodyTooLarge());
  if (Number(req.headers['content-length'] ?? '0') > cap.limit) throw tooLarge();
  const hook = await ctx.deps.hooks.findById(key);
  const hmac = hook && hook.deleteAt === 0 && hook.transform && hook.transformSecret ? createHmac('sha256', hook.transformSecret) : undefined;
  const form = await readHookForm(capStream(req, cap.limit, tooLarge), req.headers, {
    maxFieldBytes,
    limits,
    spoolDir: ctx.spoolDir ?? DEFAULT_HOOK_SPOOL_DIR,
    ...(hmac ? { onBytes: (chunk: Buffer) => hmac.update(chunk) } : {}),
  });
  return { form, ...(hmac ? { signedHmacHex: hmac.digest('hex') } : {}) };
}

function readBody(req: Request, res: Response, cap: { limit: number; tooLarge?: () => Error }): Promise<Buffer> {
  (req as LimitedRequest)[BODY_LIMIT] = cap.limit;
  if (cap.tooLarge) (req as LimitedRequest)[BODY_TOO_LARGE] = cap.tooLarge;
  return new Promise((resolve, reject) => {
    readRawBody(req, res, (error?: unknown) => (error ? reject(error) : resolve(req.rawBody ?? EMPTY_BODY)));
  });
}

/** Refusals named by their error id: a fixed word, never the key or the message. */
const REASON_BY_ERROR_ID: Readonly<Record<string, string>> = {
  'web.incoming_webhook.invalid.app_error': 'unknown_hook',
  'web.incoming_webhook.parse.app_error': 'invalid_payload',
  'model.incoming_hook.parse_data.app_error': 'invalid_payload',
  'web.incoming_webhook.text.app_error': 'invalid_payload',
  'web.incoming_webhook.split_props_length.app_error': 'invalid_payload',
  'web.incoming_webhook.disabled.app_error': 'disabled',
  'web.incoming_webhook.channel.app_error': 'channel_not_found',
  'web.incoming_webhook.channel_locked.app_error': 'channel_locked',
  'web.incoming_webhook.permissions.app_error': 'forbidden',
  'web.incoming_webhook.user.app_error': 'user_not_found',
  'api.context.rate_limit.app_error': 'rate_limited',
  'api.incoming_webhook.idempotency.in_progress.app_error': 'idempotency_in_progress',
  'api.webhook.transform.app_error': 'transform_failed',
  'api.webhook.transform.signature.app_error': 'bad_signature',
};

/** The refusal reason of the intake metric, from the answer's error id, else its status. */
export function refusalReason(answer: Pick<StoredResponse, 'status' | 'body' | 'contentType'>): string {
  if (answer.contentType === 'application/json') {
    try {
      const id = (JSON.parse(answer.body) as { id?: unknown }).id;
      const known = typeof id === 'string' ? REASON_BY_ERROR_ID[id] : undefined;
      if (known) return known;
    } catch {
      // not JSON after all: by status
    }
  }
  switch (answer.status) {
    case 400: return 'bad_request';
    case 401: case 403: return 'forbidden';
    case 404: return 'not_found';
    case 413: return 'too_large';
    case 429: return 'rate_limited';
    case 501: return 'disabled';
    case 503: return 'unavailable';
    default: return answer.status >= 500 ? 'error' : 'other';
  }
}

function write(res: Response, answer: StoredResponse): void {
  if (answer.status < 300) intakeMetrics.accepted();
  else intakeMetrics.refused(refusalReason(answer));
  res.statusCode = answer.status;
  if (answer.headers) for (const name of Object.keys(answer.headers)) res.setHeader(name, answer.headers[name] as string);
  res.setHeader('Content-Type', answer.contentType);
  res.setHeader('Content-Length', Buffer.byteLength(answer.body));
  res.end(answer.body);
}

/**
 * `POST /hooks/{key}`: no session, no CSRF. Every answer is written here (not by the shared error
 * middleware) so that no log line carries the full key; 5xx are logged at error with the request id.
 */
export function webhookRoute(ctx: HttpContext): RequestHandler {
  const { deps, logger } = ctx;

  return async (req, res) => {
    const key = String(req.params.key);
    const requestId = req.requestId ?? '';
    const config = deps.liveConfig.current();
    const debugging = config.LogSettings.EnableWebhookDebugging;
    const developer = config.ServiceSettings.EnableDeveloper;
    const queryIndex = req.originalUrl.indexOf('?');
    // express parses the query on every read of req.query: only when there is one.
    const wait = queryIndex >= 0 && TRUE_VALUES.has(String((req.query as Record<string, unknown>).wait ?? ''));
    const present = (outcome: IngestOutcome): StoredResponse => {
      if (outcome.ok) {
        return wait
          ? { status: 200, contentType: 'application/json', body: JSON.stringify({ status: 'OK', post_ids: outcome.postIds }) }
          : { status: 200, contentType: 'text/plain', body: 'ok' };
      }
      const wire = toWireError(outcome.error, { requestId, developer });
      const headers = isAppError(outcome.error) ? { ...outcome.error.headers } : {};
      return { status: wire.status_code, contentType: 'application/json', body: JSON.stringify(wire), headers };
    };
    let request: WebhookRequest | null | undefined;
    let body: HookBody | undefined;
    // Spooled file parts are removed before the answer goes (a client that reads it finds nothing left).
    const releaseSpool = async (): Promise<void> => {
      const spooled = body && 'form' in body ? body.form.files : [];
      body = undefined;
      if (spooled.length > 0) await release(spooled).catch(() => undefined);
    };
    const answerWith = async (answer: StoredResponse): Promise<void> => {
      await releaseSpool();
      write(res, answer);
    };
    try {
      if (!HOOK_KEY.test(key)) throw commonErrors.routeNotFound(`/hooks/${hookRef(key)}`);
      const cap = await bodyCap(deps, key, req, config);
      const maxBytes = config.ServiceSettings.MaximumPayloadSizeBytes;
      const fileLimits = { maxFileSize: config.FileSettings.MaxFileSize, maxFiles: MAX_HOOK_FILES };
      body = isMultipart(req) ? await streamForm(ctx, key, req, cap, fileLimits, maxBytes) : { raw: await readBody(req, res, cap) };
      if (!config.ServiceSettings.EnableIncomingWebhooks) throw Errors.disabled();
      const decoded = await decodeHookRequest(deps, key, req.headers, body, queryIndex >= 0 ? req.originalUrl.slice(queryIndex + 1) : '', maxBytes);
      if (decoded === FILTERED) {
        await answerWith(present({ ok: true, postIds: [] }));
        return;
      }
      request = decoded.request;
      const idempotencyKey = req.headers['idempotency-key'];
      if (idempotencyKey !== undefined && (typeof idempotencyKey !== 'string' || idempotencyKey.length < 1 || idempotencyKey.length > 255)) {
        throw Errors.invalidParam('Idempotency-Key', 'the Idempotency-Key header must be 1 to 255 characters');
      }
      if (debugging) logger.debug('incoming webhook received', { hook: hookRef(key), request_id: requestId, payload: request });
      const answer = await ingestWebhook(deps, {
        hookId: key,
        request,
        requestId,
        present,
        ...(decoded.postAs !== undefined ? { postAs: decoded.postAs } : {}),
        ...(decoded.files && decoded.files.length > 0 ? { files: decoded.files } : {}),
        ...(typeof idempotencyKey === 'string' ? { idempotencyKey } : {}),
      });
      if (debugging && answer.status >= 400) logger.info('incoming webhook refused', { hook: hookRef(key), request_id: requestId, status: answer.status, body: answer.body });
      await answerWith(answer);
    } catch (error) {
      const answer = present({ ok: false, error });
      // 501 (webhooks switched off) is a refusal, not a failure.
      if (answer.status >= 500 && answer.status !== 501) logger.error('incoming webhook failed', { hook: hookRef(key), request_id: requestId, error });
      else if (debugging) logger.info('incoming webhook refused', { hook: hookRef(key), request_id: requestId, status: answer.status, body: answer.body });
      // An answer before the body's end (a cap, a refusal): the rest is thrown away (bounded).
      discardRest(req);
      if (!res.headersSent) await answerWith(answer);
      else {
        intakeMetrics.refused(refusalReason(answer));
        res.end();
      }
    } finally {
      await releaseSpool();
    }
  };
}
