import { Joi } from '@switchyard/config';
import type { SystemConfig } from '@switchyard/system-config';

type FileSettings = SystemConfig['FileSettings'];

/**
 * The storage keys of `FileSettings` that the environment may fix, named as the reference's environment
 * overrides (`MM_FILESETTINGS_<KEY>`): a deployment (k8s, compose) gives posts its object store this way,
 * the access keys from a Secret. A key set here takes precedence over the config document's value, key
 * by key; the others (MaxFileSize, EnableFileAttachments, ...) stay the document's.
 */
export const FILE_SETTINGS_ENV = {
  MM_FILESETTINGS_DRIVERNAME: 'DriverName',
  MM_FILESETTINGS_DIRECTORY: 'Directory',
  MM_FILESETTINGS_AMAZONS3BUCKET: 'AmazonS3Bucket',
  MM_FILESETTINGS_AMAZONS3ENDPOINT: 'AmazonS3Endpoint',
  MM_FILESETTINGS_AMAZONS3SSL: 'AmazonS3SSL',
  MM_FILESETTINGS_AMAZONS3REGION: 'AmazonS3Region',
  MM_FILESETTINGS_AMAZONS3PATHPREFIX: 'AmazonS3PathPrefix',
  MM_FILESETTINGS_AMAZONS3ACCESSKEYID: 'AmazonS3AccessKeyId',
  MM_FILESETTINGS_AMAZONS3SECRETACCESSKEY: 'AmazonS3SecretAccessKey',
} as const satisfies Record<string, keyof FileSettings>;

export type FileSettingsEnvKey = keyof typeof FILE_SETTINGS_ENV;

export type FileSettingsEnv = { readonly [K in FileSettingsEnvKey]?: FileSettings[(typeof FILE_SETTINGS_ENV)[K]] } & {
  /** Create the bucket at start when it does not exist (local servers, dev clusters); default: only check it. */
  readonly FILES_CREATE_BUCKET?: boolean;
};

const text = (what: string) => Joi.string().allow('').max(1024).description(what);

export const fileSettingsEnvSchema = {
  MM_FILESETTINGS_DRIVERNAME: Joi.string().valid('local', 'amazons3').description('FileSettings.DriverName: local (a directory) or amazons3'),
  MM_FILESETTINGS_DIRECTORY: text('FileSettings.Directory (local driver)'),
  MM_FILESETTINGS_AMAZONS3BUCKET: text('FileSettings.AmazonS3Bucket'),
  // Host[:port] as the reference: the scheme comes from AmazonS3SSL.
  MM_FILESETTINGS_AMAZONS3ENDPOINT: Joi.string()
    .allow('')
    .pattern(/^[A-Za-z0-9.-]+(:\d{1,5})?$/)
    .description('FileSettings.AmazonS3Endpoint: host[:port], no scheme'),
  MM_FILESETTINGS_AMAZONS3SSL: Joi.boolean().description('FileSettings.AmazonS3SSL: https to the endpoint'),
  MM_FILESETTINGS_AMAZONS3REGION: text('FileSettings.AmazonS3Region'),
  MM_FILESETTINGS_AMAZONS3PATHPREFIX: text('FileSettings.AmazonS3PathPrefix'),
  MM_FILESETTINGS_AMAZONS3ACCESSKEYID: text('FileSettings.AmazonS3AccessKeyId (from a Secret)'),
  MM_FILESETTINGS_AMAZONS3SECRETACCESSKEY: text('FileSettings.AmazonS3SecretAccessKey (from a Secret)'),
  FILES_CREATE_BUCKET: Joi.boolean().default(false).description('Create the FileSettings bucket at start when missing (default: check only)'),
};

/** The FileSettings keys the environment fixes (only those it sets). */
export function fileSettingsOverrides(env: FileSettingsEnv): Partial<FileSettings> {
  const out: Record<string, unknown> = {};
  for (const [variable, key] of Object.entries(FILE_SETTINGS_ENV)) {
    const value = env[variable as FileSettingsEnvKey];
    if (value !== undefined) out[key] = value;
  }
  return out as Partial<FileSettings>;
}

/** What the environment fixes, for the start log: the keys' names, never the access keys' values. */
export function describeOverrides(overrides: Partial<FileSettings>): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(overrides)) {
    shown[key] = key === 'AmazonS3SecretAccessKey' || key === 'AmazonS3AccessKeyId' ? (value === '' ? '' : '(set)') : value;
  }
  return shown;
}
