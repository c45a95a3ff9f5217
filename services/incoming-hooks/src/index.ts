export { createIncomingHooksApp, SERVICE_NAME, type IncomingHooksApp, type IncomingHooksDeps } from './app';
export { loadIncomingHooksConfig, incomingHooksEnvSchema, type IncomingHooksConfig } from './config';
