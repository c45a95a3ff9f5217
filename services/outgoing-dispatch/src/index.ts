export { createOutgoingDispatchApp, SERVICE_NAME, type OutgoingDispatchApp, type OutgoingDispatchDeps } from './app';
export { loadOutgoingDispatchConfig, outgoingDispatchEnvSchema, type OutgoingDispatchConfig } from './config';
