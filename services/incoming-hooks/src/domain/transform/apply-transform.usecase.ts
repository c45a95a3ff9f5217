import { isAppError } from '@switchyard/errors';
import { parseJsonBody } from '@switchyard/validation';
import type { HookTransform, IncomingHook } from '../entities';
import { verifySignature } from './signatures';
import { genericEvent, templateOf } from './templates';
import type { TransformEngine } from './transform-engine';
import { TransformErrors } from './transform-errors';
import { expressionHeaders, queryObject, type TransformInput } from './transform-input';

/** Wall time of one evaluation (a hook manager's expression is stopped from outside a little later). */
export const TRANSFORM_TIME_MS = 250;

export interface TransformRequest {
  readonly transform: HookTransform;
  readonly onlyEvents?: readonly string[];
  readonly excludeEvents?: readonly string[];
  /** The vendor's signature is checked with it where the template defines one ('' = no check). */
  readonly secret: string;
  /** The raw request headers (lower-case names, as node gives them). */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /**
   * The body as it came, or the parsed value (dry run). `signedHmacHex`: HMAC-SHA256 (hex, with `secret`)
   * of the bytes the vendor signed when they are more than `raw` (a multipart body: `raw` is its payload part).
   */
  readonly body: { readonly raw: Buffer; readonly mediaType: string; readonly signedHmacHex?: string } | { readonly parsed: unknown };
  readonly query: string;
  /** The result may be at most this large (the hook body limit). */
  readonly maxOutputBytes: number;
}

export type TransformOutcome =
  | { readonly filtered: true; readonly event: string }
  | { readonly filtered: false; readonly event: string; readonly post: Record<string, unknown> };

export function transformRequestOf(hook: IncomingHook, rest: Omit<TransformRequest, 'transform' | 'onlyEvents' | 'excludeEvents' | 'secret'>): TransformRequest | undefined {
  if (!hook.transform) return undefined;
  return { transform: hook.transform, onlyEvents: hook.onlyEvents ?? [], excludeEvents: hook.excludeEvents ?? [], secret: hook.transformSecret ?? '', ...rest };
}

/** JSON, or the `payload` field of a form (GitHub's other content type); an empty body is `null`. */
function parseBody(raw: Buffer, mediaType: string): unknown {
  let text = raw.toString('utf8');
  if (mediaType === 'application/x-www-form-urlencoded') text = new URLSearchParams(text).get('payload') ?? '';
  if (text.trim() === '') return null;
  try {
    return parseJsonBody(text);
  } catch (error) {
    throw TransformErrors.failed(`the body is not JSON: ${isAppError(error) ? error.detailedError : 'invalid JSON'}`);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A vendor's request → the hook body it yields (spec "Hook transform"): the vendor's signature (raw bytes),
 * its event name and the hook's filters, then the template or expression. Every refusal is 400
 * api.webhook.transform.app_error with the reason, or 401 ...signature... for a wrong signature.
 */
export async function applyTransform(engine: TransformEngine, request: TransformRequest): Promise<TransformOutcome> {
  const template = 'template' in request.transform ? templateOf(request.transform.template) : undefined;
  if ('template' in request.transform && !template) throw TransformErrors.failed(`unknown template ${JSON.stringify(request.transform.template)}`);
  if ('raw' in request.body && template?.signature && request.secret !== '') verifySignature(template.signature, request.secret, request.headers, request.body.signedHmacHex ?? request.body.raw);
  const input: TransformInput = {
    body: 'raw' in request.body ? parseBody(request.body.raw, request.body.mediaType) : request.body.parsed,
    headers: expressionHeaders(request.headers),
    query: queryObject(request.query),
  };
  const event = template ? template.event(input) : genericEvent(input);
  const only = request.onlyEvents ?? [];
  if ((only.length > 0 && !only.includes(event)) || (request.excludeEvents ?? []).includes(event)) return { filtered: true, event };
  const limits = { timeMs: TRANSFORM_TIME_MS, maxOutputBytes: request.maxOutputBytes };
  const result = template
    ? await engine.evaluateTemplate(template.name, input, limits)
    : await engine.evaluateExpression((request.transform as { jsonata: string }).jsonata, input, limits);
  if (result === undefined) throw TransformErrors.failed('the transform yielded nothing for this payload');
  if (!isObject(result)) throw TransformErrors.failed(`the transform must yield an object (a hook body), not ${Array.isArray(result) ? 'an array' : typeof result}`);
  return { filtered: false, event, post: result };
}
