export { openStore, DATABASE_FILE, type OpenStoreOptions, type SqliteStore } from './open-store';
export { migrate, schemaVersions, type Migration } from './migrations';
export { StoreOpenError, isStoreOpenError, sqliteCode, uniqueViolation, type StoreOpenFailure } from './store-errors';
export { fromDoc, fromDocs, inKeyOrder, jsonList, pageWindow, definedChanges, bool, type DocRow, type SqliteStatement } from './rows';
export { restoreDataDir, backupFile } from './backup';
export { openTestStore, type TestStore } from './test-store';
export { freshRepositories, type FreshRepositories } from './fresh-repositories';
export { SqliteEventJournal, EVENT_BUS_COMPONENT, EVENT_BUS_MIGRATIONS } from './event-journal';
export type { EventHistoryOptions } from './event-history';
