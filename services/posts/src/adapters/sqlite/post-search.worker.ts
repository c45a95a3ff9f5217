import { parentPort, workerData } from 'node:worker_threads';
import { openReadConnection } from '@switchyard/sqlite-kit';
import type { PostSearchQuery } from '../../domain/search/post-search.port';
import { SqlitePostSearch, type PostSearchRow } from './post-search.sqlite';

/**
 * A search asked of the thread (ThreadPostSearch). A channel list the thread was given once with a `listId`
 * (the search scope hands out the same frozen list while it is unchanged) is named by that id alone later:
 * `query.channelIds` then comes empty, and the thread answers `unknownList` when it no longer has it.
 */
export interface SearchRequest {
  readonly id: number;
  readonly query: PostSearchQuery;
  readonly listId?: number;
}

/**
 * Its answer: the rows found (one JSON array of `{post, events, matches}`: the stored document and pending
 * events as they are, so one string crosses instead of a hundred objects), or why the search failed.
 */
export type SearchReply =
  | { readonly id: number; readonly rowsJson: string }
  | { readonly id: number; readonly unknownList: true }
  | { readonly id: number; readonly error: string };

/** Channel lists kept by id at most (all dropped beyond it; the caller sends a dropped one again). */
const MAX_LISTS = 256;

/**
 * The search thread: its own read connection to the store's database (openReadConnection: WAL snapshots of
 * what the store has committed) and SqlitePostSearch on it, one request at a time, in order.
 */
const { uri, cacheKiB } = workerData as { uri: string; cacheKiB: number };
const search = new SqlitePostSearch(openReadConnection(uri, cacheKiB));
const lists = new Map<number, readonly string[]>();

function answer(request: SearchRequest): SearchReply {
  let query = request.query;
  if (request.listId !== undefined) {
    if (query.channelIds.length > 0) {
      if (lists.size >= MAX_LISTS) lists.clear();
      // Frozen, so SqlitePostSearch keeps its channel set while the list is in use.
      lists.set(request.listId, Object.freeze(query.channelIds));
    }
    const channelIds = lists.get(request.listId);
    if (channelIds === undefined) return { id: request.id, unknownList: true };
    query = { ...query, channelIds };
  }
  return { id: request.id, rowsJson: rowsJson(search.rows(query)) };
}

/** The rows as one JSON array; `doc` and `events` are JSON already (stored by the store's own JSON.stringify). */
function rowsJson(rows: readonly PostSearchRow[]): string {
  return `[${rows.map((row) => `{"post":${row.doc},"events":${row.events},"matches":${JSON.stringify(row.matches)}}`).join(',')}]`;
}

const port = parentPort;
port?.on('message', (request: SearchRequest) => {
  let reply: SearchReply;
  try {
    reply = answer(request);
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
