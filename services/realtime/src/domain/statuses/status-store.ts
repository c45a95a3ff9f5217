import type { StoredStatus } from './status';

/**
 * Stored statuses shared by every realtime replica (manual choices, last activity). Online/offline comes
 * from the PresenceStore (docs/adr/0012); this keeps what a user set. Adapters: memory (embedded, one
 * process) and Redis (distributed), under one contract suite.
 */
export interface StatusStore {
  /** The stored statuses of these users (absent ones are missing from the map). */
  get(userIds: readonly string[]): Promise<ReadonlyMap<string, StoredStatus>>;
  put(status: StoredStatus): Promise<void>;
}
