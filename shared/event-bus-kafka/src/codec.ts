import type { IHeaders } from 'kafkajs';
import { EVENT_TYPE_HEADER, typeOfValue } from '@switchyard/event-bus';

/** Pure helpers of the Kafka adapter: value and header encoding, offsets, retry delays. No I/O. */

export const DLQ_HEADERS = {
  reason: 'x-dlq-reason',
  group: 'x-dlq-group',
  topic: 'x-dlq-topic',
  partition: 'x-dlq-partition',
  offset: 'x-dlq-offset',
  attempts: 'x-dlq-attempts',
} as const;

/** Longest `x-dlq-reason` kept; error messages can embed whole payloads. */
export const MAX_REASON_LENGTH = 1000;

/** JSON text of a message value; `undefined` becomes `null` (JSON has no undefined). */
export function encodeValue(value: unknown): string {
  return JSON.stringify(value ?? null);
}

/** `headers` (a copy the caller owns) with the value's type in `EVENT_TYPE_HEADER`, unless it has none or the caller set one. */
export function withEventType(headers: Record<string, string>, value: unknown): Record<string, string> {
  const type = typeOfValue(value);
  if (type !== undefined) headers[EVENT_TYPE_HEADER] ??= type;
  return headers;
}

/** A decoded value and the JSON text it was parsed from. */
export type DecodedValue = { readonly ok: true; readonly value: unknown; readonly json: string } | { readonly ok: false; readonly reason: string };

/** Parses a record value written by `encodeValue`; a tombstone (null) is the value `null`. */
export function decodeValue(raw: Buffer | null): DecodedValue {
  if (raw === null) return { ok: true, value: null, json: 'null' };
  try {
    const json = raw.toString('utf8');
    return { ok: true, value: JSON.parse(json) as unknown, json };
  } catch (error) {
    return { ok: false, reason: `value is not JSON: ${errorMessage(error)}` };
  }
}

/**
 * Record headers as the port shows them: UTF-8 strings. Kafka allows a key more than once (kafkajs
 * gives an array then): the last value wins, as in a plain object assignment.
 */
export function decodeHeaders(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  for (const [name, raw] of Object.entries(headers)) {
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (value === undefined) continue;
    out[name] = typeof value === 'string' ? value : value.toString('utf8');
  }
  return out;
}

/** The offset to commit after handling `offset`: Kafka commits the next offset to read. */
export function nextOffset(offset: string): string {
  return (BigInt(offset) + 1n).toString();
}

/** Delay before delivery `attempt + 1` after `attempt` failed: attempt × base, capped. */
export function retryDelay(attempt: number, baseMs: number, maxMs: number): number {
  return Math.max(0, Math.min(maxMs, Math.max(1, attempt) * baseMs));
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

export interface DeadLetterInfo {
  readonly reason: unknown;
  readonly groupId: string;
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly attempts: number;
}

/** Headers of a dead letter: the original ones (trace context included) plus where and why it failed. */
export function deadLetterHeaders(original: Readonly<Record<string, string>>, info: DeadLetterInfo): Record<string, string> {
  const reason = errorMessage(info.reason);
  return {
    ...original,
    [DLQ_HEADERS.reason]: reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH - 1)}…` : reason,
    [DLQ_HEADERS.group]: info.groupId,
    [DLQ_HEADERS.topic]: info.topic,
    [DLQ_HEADERS.partition]: String(info.partition),
    [DLQ_HEADERS.offset]: info.offset,
    [DLQ_HEADERS.attempts]: String(info.attempts),
  };
}
