import Joi from 'joi';
import { randomUUID } from 'node:crypto';

/** Every message on the bus: an id for idempotent consumers, a type, a schema version and the time. */
export interface Envelope<TType extends string = string, TPayload = unknown> {
  readonly id: string;
  readonly type: TType;
  readonly version: number;
  /** ms since epoch */
  readonly time: number;
  readonly payload: TPayload;
}

export const envelopeSchema = Joi.object({
  id: Joi.string().min(1).max(64).required(),
  type: Joi.string().min(1).max(128).required(),
  version: Joi.number().integer().min(1).required(),
  time: Joi.number().integer().min(0).required(),
  payload: Joi.any().required(),
});

export function envelope<TType extends string, TPayload>(type: TType, payload: TPayload, version = 1, id: string = randomUUID()): Envelope<TType, TPayload> {
  return { id, type, version, time: Date.now(), payload };
}
