import { histogram } from './registry';

const operations = () =>
  histogram('switchyard_store_operation_duration_seconds', 'Database operations, by service, store, operation (the command name) and result (ok, error)', ['service', 'store', 'operation', 'result']);

const KNOWN = new Set(['find', 'insert', 'update', 'delete', 'findAndModify', 'aggregate', 'count', 'distinct', 'getMore', 'createIndexes', 'listIndexes', 'bulkWrite', 'ping', 'hello', 'isMaster', 'endSessions', 'killCursors', 'drop', 'dropDatabase', 'listCollections', 'create']);

export function observeStoreOperation(service: string, store: 'mongo' | 'redis', operation: string, ok: boolean, seconds: number): void {
  operations().observe({ service, store, operation: store === 'mongo' && !KNOWN.has(operation) ? 'other' : operation, result: ok ? 'ok' : 'error' }, seconds);
}
