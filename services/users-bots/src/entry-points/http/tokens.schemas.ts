import { Joi } from '@switchyard/validation';

export const createTokenBody = Joi.object({
  description: Joi.string().max(4096).required(),
  expires_at: Joi.number().integer(),
}).required();

export const tokenIdBody = Joi.object({ token_id: Joi.string().max(64).required() }).required();
