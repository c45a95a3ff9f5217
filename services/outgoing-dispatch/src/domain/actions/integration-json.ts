import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '@switchyard/validation';

/** Integration answers larger than this are refused (actions, dialogs). */
export const MAX_INTEGRATION_ANSWER_BYTES = 1024 * 1024;

export type IntegrationJson = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

/** An integration's JSON answer: `undefined` for an empty body; size, depth and syntax checked. */
export function parseIntegrationJson(body: string): IntegrationJson {
  if (Buffer.byteLength(body) > MAX_INTEGRATION_ANSWER_BYTES) return { ok: false, reason: 'response too large' };
  if (body.trim() === '') return { ok: true, value: undefined };
  if (jsonNestsDeeperThan(body)) return { ok: false, reason: `the response nests deeper than ${MAX_JSON_DEPTH} levels` };
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    return { ok: false, reason: 'the response is not JSON' };
  }
}
