export { defaultSystemConfig, SECRET_KEYS, SECRET_MASK, type SystemConfig } from './defaults';
export { systemConfigPatchSchema, configRangeProblem } from './schema';
export { applyConfigPatch, replaceConfig, sanitizeConfig, withDefaults } from './merge';
export { MutableConfigView, type ConfigView } from './config-view';
