export { SERVICE_TABLE, serviceUrls, type ServiceSpec } from './service-table';
export { readEnvFile } from './env-file';
