export { parseJsonBody } from './json-body';
export { validate, validateWithId, type ValidateOptions } from './validate';
export { requireIdParam, parsePaging, queryFlag, goAtoi, type Paging } from './url-params';
export { Joi } from './joi';
