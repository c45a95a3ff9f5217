import secureJson from 'secure-json-parse';
import { badRequest, commonErrors } from '@switchyard/errors';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from './json-depth';

/**
 * Parses a JSON request body, refusing with 400 `api.context.invalid_body_param.app_error`: malformed
 * JSON, `__proto__` and `constructor.prototype` keys (prototype pollution), and nesting deeper than
 * MAX_JSON_DEPTH (checked on the text, before parsing; deeper documents break readers and stores later).
 */
export function parseJsonBody(raw: string | Buffer, paramName = 'body'): unknown {
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  if (text.trim() === '') return undefined;
  if (jsonNestsDeeperThan(text)) {
    const why = `The JSON in the request body nests deeper than ${MAX_JSON_DEPTH} levels.`;
    throw badRequest('api.context.invalid_body_param.app_error', why, { detailedError: `${paramName}: ${why}` });
  }
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    throw commonErrors.invalidBodyParam(paramName, error instanceof Error ? error.message : 'invalid JSON');
  }
}
