export { COLLAPSED_THREADS_MODES, defaultSystemConfig, INCOMING_WEBHOOK_ACK_MODES, type CollapsedThreadsMode, SECRET_KEYS, SECRET_MASK, SIGNING_ALGORITHMS, type IncomingWebhookAckMode, type SigningAlgorithm, type SystemConfig } from './defaults';
export { systemConfigPatchSchema, configRangeProblem } from './schema';
export { applyConfigPatch, replaceConfig, sanitizeConfig, withDefaults } from './merge';
export { MutableConfigView, type ConfigView } from './config-view';
