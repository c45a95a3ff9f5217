export { parseJsonBody } from './json-body';
export { validate, validateWithId, type ValidateOptions } from './validate';
export { requireIdParam, parsePaging, queryFlag, type Paging } from './url-params';
export { Joi } from './joi';
