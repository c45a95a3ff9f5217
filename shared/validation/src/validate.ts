import type Joi from 'joi';
import { badRequest, commonErrors, type AppError } from '@switchyard/errors';

export interface ValidateOptions {
  /** Builds the error for the first failing key; default: invalid_body_param naming the key. */
  readonly onError?: (key: string, detail: string) => AppError;
}

/**
 * Validates a value against a joi schema without type coercion (so `{"$gt":""}` where a string
 * belongs fails) and strips unknown keys. Throws a 400 AppError naming the first failing key.
 */
export function validate<T>(schema: Joi.Schema<T>, value: unknown, options: ValidateOptions = {}): T {
  const result = schema.validate(value, { abortEarly: true, convert: false, stripUnknown: true });
  if (result.error) {
    const detail = result.error.details[0];
    const key = detail?.path.join('.') || 'body';
    const message = detail?.message ?? result.error.message;
    throw options.onError ? options.onError(key, message) : commonErrors.invalidBodyParam(key, message);
  }
  return result.value;
}

/** The same as validate, for a specific model validation id (e.g. `model.bot.is_valid.username.app_error`). */
export function validateWithId<T>(schema: Joi.Schema<T>, value: unknown, id: string, message: string): T {
  return validate(schema, value, { onError: (_key, detail) => badRequest(id, message, { detailedError: detail }) });
}
