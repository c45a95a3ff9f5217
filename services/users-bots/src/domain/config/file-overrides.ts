import type { SystemConfig } from '@switchyard/system-config';

type FileSettings = SystemConfig['FileSettings'];

/** The config in effect: the document with the FileSettings keys the environment fixes (as the reference shows it). */
export function inEffect(config: Readonly<SystemConfig>, overrides: Partial<FileSettings>): SystemConfig {
  if (Object.keys(overrides).length === 0) return config as SystemConfig;
  return { ...config, FileSettings: { ...config.FileSettings, ...overrides } } as SystemConfig;
}

/**
 * A config about to be stored keeps the document's own value for every key the environment fixes (the
 * reference never writes an environment override into its config store): a client that read the config
 * in effect and writes it back changes nothing there.
 */
export function keepDocumentValues(next: SystemConfig, current: Readonly<SystemConfig>, overrides: Partial<FileSettings>): SystemConfig {
  const keys = Object.keys(overrides) as (keyof FileSettings)[];
  if (keys.length === 0) return next;
  const files: Record<string, unknown> = { ...next.FileSettings };
  for (const key of keys) files[key] = current.FileSettings[key];
  return { ...next, FileSettings: files as FileSettings };
}
