export { AppError, isAppError, STATUS_BY_KIND, type ErrorKind, type AppErrorInit } from './app-error';
export {
  badRequest,
  unauthorized,
  forbidden,
  notFound,
  conflict,
  payloadTooLarge,
  tooManyRequests,
  notImplemented,
  internalError,
  upstreamError,
  unavailable,
  commonErrors,
} from './factories';
export { toWireError, isWireError, type WireError, type ToWireOptions } from './wire';
export { DuplicateKeyError, isDuplicateKeyError } from './duplicate-key';
export { dependencyUnavailableError, isDependencyUnavailable } from './dependency-unavailable';
