import { Joi } from '@switchyard/validation';

export const resolveBody = Joi.object({ token: Joi.string().max(128).required() }).required();
export const byIdBody = Joi.object({ id: Joi.string().max(64).required() }).required();
export const byIdsBody = Joi.object({ ids: Joi.array().items(Joi.string().max(64)).max(1000).required() }).required();
export const byUsernamesBody = Joi.object({ usernames: Joi.array().items(Joi.string().max(128)).max(1000).required() }).required();
/** team_id absent: members of any team. */
export const teamMembersAmongBody = Joi.object({ team_id: Joi.string().max(64), user_ids: Joi.array().items(Joi.string().max(64)).max(100).required() }).required();
