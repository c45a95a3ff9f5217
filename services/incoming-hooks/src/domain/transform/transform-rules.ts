import jsonata from 'jsonata';
import type { HookTransform, IncomingHook } from '../entities';
import type { HookInput } from '../hooks/hook-input';
import { TEMPLATE_NAMES, templateOf } from './templates';
import { TransformErrors } from './transform-errors';

/** How a set secret is shown (the reference's mask for secrets in the config). */
export const SECRET_MASK = '********************************';
export const MAX_EXPRESSION_CHARS = 16_384;
export const MAX_EVENTS = 100;
export const MAX_EVENT_CHARS = 100;
export const MAX_SECRET_CHARS = 255;

export interface TransformFields {
  readonly transform: HookTransform | null;
  readonly onlyEvents: readonly string[];
  readonly excludeEvents: readonly string[];
  readonly transformSecret: string;
}

/** A JSONata error's message with its position, for `detailed_error`. */
export function jsonataReason(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { code, message, position } = error as { code?: unknown; message?: unknown; position?: unknown };
    const text = typeof message === 'string' ? message : 'invalid expression';
    const where = typeof position === 'number' ? ` at position ${position}` : '';
    return `${typeof code === 'string' ? `${code}: ` : ''}${text}${where}`.slice(0, 500);
  }
  return 'invalid expression';
}

function checkTransform(transform: HookTransform | null): HookTransform | null {
  if (transform === null) return null;
  if ('template' in transform) {
    if (!templateOf(transform.template)) throw TransformErrors.failed(`unknown template ${JSON.stringify(transform.template.slice(0, 50))}; one of ${TEMPLATE_NAMES.join(', ')}`);
    return { template: transform.template };
  }
  const expression = transform.jsonata;
  if (expression.trim() === '') throw TransformErrors.failed('the expression is empty');
  if (expression.length > MAX_EXPRESSION_CHARS) throw TransformErrors.failed(`the expression is longer than ${MAX_EXPRESSION_CHARS} characters`);
  try {
    jsonata(expression);
  } catch (error) {
    throw TransformErrors.failed(`the expression does not compile: ${jsonataReason(error)}`);
  }
  return { jsonata: expression };
}

function checkEvents(events: readonly string[], field: string): string[] {
  if (events.length > MAX_EVENTS) throw TransformErrors.failed(`${field}: at most ${MAX_EVENTS} events`);
  for (const event of events) if (event === '' || event.length > MAX_EVENT_CHARS) throw TransformErrors.failed(`${field}: each event is 1 to ${MAX_EVENT_CHARS} characters`);
  return [...new Set(events)];
}

/**
 * The stored transform fields after a create (`old` absent) or an update: a field the client left out keeps
 * its stored value (a reference client's PUT knows none of them); the mask sent back keeps the secret.
 */
export function transformFieldsOf(input: HookInput, old?: IncomingHook): TransformFields {
  const secret = input.transformSecret;
  if (secret !== undefined && secret !== SECRET_MASK && secret.length > MAX_SECRET_CHARS) throw TransformErrors.failed(`transform_secret: at most ${MAX_SECRET_CHARS} characters`);
  return {
    transform: input.transform !== undefined ? checkTransform(input.transform) : (old?.transform ?? null),
    onlyEvents: input.onlyEvents !== undefined ? checkEvents(input.onlyEvents, 'only_events') : (old?.onlyEvents ?? []),
    excludeEvents: input.excludeEvents !== undefined ? checkEvents(input.excludeEvents, 'exclude_events') : (old?.excludeEvents ?? []),
    transformSecret: secret === undefined || secret === SECRET_MASK ? (old?.transformSecret ?? '') : secret,
  };
}
