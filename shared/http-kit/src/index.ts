import './express-augment';

export { createHttpApp, setRouteTemplate, type HttpApp, type HttpAppOptions, type HealthReport } from './create-http-app';
export { errorMiddleware } from './error-middleware';
export { sendJson, sendStatusOk } from './send-json';
export { rawBody, jsonBody } from './body';
export { smallFormUpload, type SmallForm, type SmallFormErrors, type SmallFormOptions } from './small-form';
export { ByteCap, capStream, discardRest, streamedBody, DISCARD_LIMITS } from './stream-body';
export {
  signIdentity,
  verifyIdentity,
  IDENTITY_HEADER,
  IDENTITY_SIGNATURE_HEADER,
  IDENTITY_MAX_AGE_MS,
  type Identity,
  type IdentityTarget,
} from './identity';
export { identityMiddleware, requireIdentity } from './identity-middleware';
export { idParam, userIdParam, queryValue, queryBool, paging } from './request-params';
export { readiness, type ReadinessCheck } from './readiness';
export { keySet, internalKeys, signingKey, acceptedKeys, matchesAnyKey, type KeySet, type Keys } from './key-set';
export {
  InProcessTransport,
  HttpTransport,
  type HttpTransportOptions,
  callJson,
  type ServiceTransport,
  type InternalRequest,
  type InternalResponse,
  type HeaderMap,
  type LeaveSignal,
} from './transport';
export { listen, DEFAULT_LISTEN_LIMITS, type ListenLimits, type ListenOptions, type RunningServer } from './listen';
export { requestPrototypes, type RequestPrototypes } from './own-prototypes';
export {
  serviceCredential,
  serviceOnly,
  verifyServiceCredential,
  SERVICE_CREDENTIAL_HEADER,
  SERVICE_CREDENTIAL_MAX_AGE_MS,
  type ServiceCredential,
  type SignedRequest,
} from './service-credential';
export { loggablePath } from './loggable-path';
export { requestLogger } from './request-logger';
export { InProcessUpgrades, proxyUpgrade, rejectUpgrade, supportsUpgrade, type UpgradeHandler, type UpgradeTransport } from './upgrade';
export { newRequestId } from './request-id';
