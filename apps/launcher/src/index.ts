export { SERVICE_TABLE, serviceUrls, withPortBase, type ServiceSpec } from './service-table';
export { readEnvFile } from './env-file';
