import { parseIntegrationJson } from '../actions/integration-json';
import { canonicalDialog } from './canonical-dialog';
import { dialogProblems, type Dialog } from './dialog-problems';
import { dialogErrors } from './dialog-errors';

/** What `dialogs/submit` answers the client (the reference's SubmitDialogResponse, every key omitempty). */
export interface DialogAnswer {
  readonly error?: string;
  readonly errors?: Readonly<Record<string, string>>;
  readonly type?: string;
  readonly form?: Dialog;
}

const COMPLETION_TYPES = new Set(['', 'ok', 'navigate']);

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function stringField(raw: Record<string, unknown>, key: string): string {
  const value = raw[key];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw dialogErrors.decodeJson(`json: "${key}" must be a string`);
  return value;
}

function fieldErrors(raw: Record<string, unknown>): Record<string, string> {
  const value = raw.errors;
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw dialogErrors.decodeJson('json: "errors" must be an object of strings');
  const errors: Record<string, string> = {};
  for (const [name, message] of Object.entries(value)) {
    if (message !== null && typeof message !== 'string') throw dialogErrors.decodeJson(`json: "errors.${name}" must be a string`);
    errors[name] = message ?? '';
  }
  return errors;
}

/**
 * Reads the integration's 200 answer: empty → `{}`; not JSON or wrong types → decode_json_error; with
 * `error` or `errors` the rest is not checked; otherwise `type` must be "", ok, navigate (no form) or form
 * (with a valid form) → invalid_response.
 */
export function readDialogAnswer(body: string): DialogAnswer {
  const parsed = parseIntegrationJson(body);
  if (!parsed.ok) throw dialogErrors.decodeJson(parsed.reason);
  if (parsed.value === undefined) return {};
  if (!isObject(parsed.value)) throw dialogErrors.decodeJson('json: the response is not an object');
  const raw = parsed.value;
  const error = stringField(raw, 'error');
  const errors = fieldErrors(raw);
  const type = stringField(raw, 'type');
  if (raw.form !== undefined && raw.form !== null && !isObject(raw.form)) throw dialogErrors.decodeJson('json: "form" must be an object');
  const form = isObject(raw.form) ? canonicalDialog(raw.form) : undefined;
  const answer: DialogAnswer = {
    ...(error !== '' ? { error } : {}),
    ...(Object.keys(errors).length > 0 ? { errors } : {}),
    ...(type !== '' ? { type } : {}),
    ...(form ? { form } : {}),
  };
  if (answer.error !== undefined || answer.errors !== undefined) return answer;
  if (COMPLETION_TYPES.has(type)) {
    if (form) throw dialogErrors.invalidResponse(`form field must be nil for type "${type}"`);
  } else if (type === 'form') {
    if (!form) throw dialogErrors.invalidResponse('form field is required for form type');
    const problems = dialogProblems(form);
    if (problems.length > 0) throw dialogErrors.invalidResponse(`invalid form: ${problems.join('; ')}`);
  } else {
    throw dialogErrors.invalidResponse(`invalid type "${type}", must be one of: empty, ok, form, navigate`);
  }
  return answer;
}
