import secureJson from 'secure-json-parse';
import { commonErrors } from '@switchyard/errors';

/**
 * Parses a JSON request body, refusing `__proto__` and `constructor.prototype` keys (prototype
 * pollution) and malformed JSON with 400 `api.context.invalid_body_param.app_error`.
 */
export function parseJsonBody(raw: string | Buffer, paramName = 'body'): unknown {
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    throw commonErrors.invalidBodyParam(paramName, error instanceof Error ? error.message : 'invalid JSON');
  }
}
