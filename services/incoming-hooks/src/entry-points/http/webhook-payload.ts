import { isAppError } from '@switchyard/errors';
import { MAX_JSON_DEPTH, parseJsonBody } from '@switchyard/validation';
import { Errors } from '../../domain/errors';
import { emptyRequest, type WebhookRequest } from '../../domain/ingest/webhook-request';
import type { HookForm } from './hook-form';
import { decodeMultipart, type DecodedMultipart } from './hook-multipart';
import { normalizeBlocks } from './block-kit';

/** Deeper JSON is refused: the one limit of every JSON body (parseJsonBody checks it before parsing). */
export const MAX_NESTING = MAX_JSON_DEPTH;
const MEDIA_TYPE = /^[!#$%&'*+\-.^_`|~0-9a-z]+(\/[!#$%&'*+\-.^_`|~0-9a-z]+)?$/;
const ESCAPABLE = /"(text|fallback|pretext|author_name|title|value)"(\s*:\s*)"((?:[^"\\]|\\[\s\S])*)"/g;

/** `mime.ParseMediaType`'s media type, lower-cased; '' when the header is absent. Malformed → 400 api.webhook.incoming.error. */
export function mediaTypeOf(header: string | undefined): string {
  if (header === undefined || header.trim() === '') return '';
  const type = (header.split(';', 1)[0] ?? '').trim().toLowerCase();
  if (!MEDIA_TYPE.test(type)) throw Errors.badContentType(`mime: invalid media type ${JSON.stringify(header.slice(0, 100))}`);
  return type;
}

/** Nesting depth of a parsed JSON value, without recursion (no stack to exhaust). */
export function nestingDepth(value: unknown, limit = MAX_NESTING): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (typeof item !== 'object' || item === null) continue;
    if (depth > max) max = depth;
    if (max > limit) return max;
    for (const child of Object.values(item)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return max;
}

/** Literal line breaks and tabs inside the values of text-like keys, escaped (the reference's second try). */
export function escapeControlChars(text: string): string {
  return text.replace(ESCAPABLE, (_whole, key: string, colon: string, value: string) => `"${key}"${colon}"${value.replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"`);
}

function parseOnce(text: string): unknown {
  try {
    return parseJsonBody(text);
  } catch (error) {
    throw Errors.parseData(isAppError(error) ? error.detailedError : 'invalid JSON');
  }
}

const STRING_FIELDS = ['text', 'username', 'icon_url', 'channel', 'type', 'icon_emoji', 'root_id'] as const;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Decodes the JSON form of IncomingWebhookRequest; `null` for an empty body or JSON `null`. */
export function decodeJsonPayload(text: string): WebhookRequest | null {
  if (text.trim() === '') return null;
  let value: unknown;
  try {
    value = parseOnce(text);
  } catch (first) {
    const escaped = escapeControlChars(text);
    if (escaped === text) throw first;
    value = parseOnce(escaped);
  }
  return webhookRequestFrom(value);
}

/** A parsed hook body (from JSON, or a transform's result) as IncomingWebhookRequest; `null` for `null`. */
export function webhookRequestFrom(value: unknown): WebhookRequest | null {
  if (value === null || value === undefined) return null;
  if (!isObject(value)) throw Errors.parseData('the payload is not a JSON object');
  if (nestingDepth(value) > MAX_NESTING) throw Errors.parseData(`the payload nests deeper than ${MAX_NESTING} levels`);
  const out: Record<string, unknown> = { ...emptyRequest };
  for (const field of STRING_FIELDS) {
    const v = value[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw Errors.parseData(`${field} must be a string`);
    out[field] = v;
  }
  if (value.props !== undefined && value.props !== null) {
    if (!isObject(value.props)) throw Errors.parseData('props must be an object');
    out.props = value.props;
  }
  if (value.attachments !== undefined && value.attachments !== null) {
    if (!Array.isArray(value.attachments)) throw Errors.parseData('attachments must be an array');
    out.attachments = value.attachments;
  }
  const blocks = normalizeBlocks(value.blocks);
  if (blocks !== null) out.blocks = blocks;
  if (value.silent !== undefined && value.silent !== null) {
    if (typeof value.silent !== 'boolean') throw Errors.parseData('silent must be a boolean');
    out.silent = value.silent;
  }
  if (value.priority !== undefined && value.priority !== null) {
    const p = value.priority;
    if (!isObject(p)) throw Errors.parseData('priority must be an object');
    if (p.priority !== undefined && p.priority !== null && typeof p.priority !== 'string') throw Errors.parseData('priority.priority must be a string');
    for (const flag of ['requested_ack', 'persistent_notifications']) {
      if (p[flag] !== undefined && p[flag] !== null && typeof p[flag] !== 'boolean') throw Errors.parseData(`priority.${flag} must be a boolean`);
    }
    out.priority = {
      ...(typeof p.priority === 'string' ? { priority: p.priority } : {}),
      ...(typeof p.requested_ack === 'boolean' ? { requested_ack: p.requested_ack } : {}),
      ...(typeof p.persistent_notifications === 'boolean' ? { persistent_notifications: p.persistent_notifications } : {}),
    };
  }
  return out as unknown as WebhookRequest;
}

/**
 * A hook request's body: the bytes read (JSON, a URL-encoded form), or a multipart body parsed as it
 * streamed, its files spooled (with, for a hook with a signing secret, the HMAC of every byte).
 */
export type HookBody = { readonly raw: Buffer } | { readonly form: HookForm; readonly signedHmacHex?: string };

/** The request as the reference reads it for each content type (mattermost-wire.md §9); files only from multipart. */
export function decodeWebhookBody(headers: Record<string, string | string[] | undefined>, body: HookBody, query: string): DecodedMultipart {
  if ('form' in body) return decodeMultipart(body.form, decodeJsonPayload);
  const raw = body.raw;
  const header = headers['content-type'];
  const mediaType = mediaTypeOf(Array.isArray(header) ? header[0] : header);
  if (mediaType === 'application/x-www-form-urlencoded') {
    const form = new URLSearchParams(raw.toString('utf8'));
    const payload = form.get('payload') ?? new URLSearchParams(query).get('payload') ?? '';
    return { request: decodeJsonPayload(payload), files: [] };
  }
  // Multipart bodies are always streamed (webhook.routes.ts): never read whole.
  if (mediaType === 'multipart/form-data') throw Errors.badContentType('a multipart body must be streamed');
  return { request: decodeJsonPayload(raw.toString('utf8')), files: [] };
}
