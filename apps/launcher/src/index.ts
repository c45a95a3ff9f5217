export { processName, SERVICE_TABLE, serviceUrls, withPortBase, withReplicas, type ServiceSpec } from './service-table';
export { readEnvFile } from './env-file';
