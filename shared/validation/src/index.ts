export { parseJsonBody } from './json-body';
export { jsonNestsDeeperThan, MAX_JSON_DEPTH } from './json-depth';
export { validate, validateWithId, type ValidateOptions } from './validate';
export { requireIdParam, parsePaging, queryFlag, goAtoi, type Paging } from './url-params';
export { Joi } from './joi';
