import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SqliteStore } from '@switchyard/sqlite-kit';
import type { PendingEvent, StoredPost } from '../../domain/entities';
import type { FoundPost, PostSearchIndex, PostSearchQuery } from '../../domain/search/post-search.port';
import type { SearchReply, SearchRequest } from './post-search.worker';

interface Waiting {
  readonly query: PostSearchQuery;
  resolve(rowsJson: string): void;
  reject(error: Error): void;
}

/**
 * Page cache of the search thread's connection in KiB (its own, beside the store's; filled only by searches).
 * A `from:` + term search reads ~100 documents on as many pages plus its candidates' pages: the bench's 64
 * queries at 1,000,000 posts touch ~25 MB, so 16 MiB read a fifth of the search's SQL CPU back through
 * pread (measured session 14: 1.0-1.2 → 0.8 ms of SQL per search; 64 MiB no better than 32).
 */
const SEARCH_CACHE_KIB = 32 * 1024;

/**
 * SqlitePostSearch on a worker thread with its own read connection (docs/adr/0041-search-reader-thread.md):
 * the SQL of a search (the FTS5 match, the candidates' channel and author checks, the documents) and the
 * found posts' matches (highlighting) run beside the event loop instead of on it; the documents are parsed here. A search first waits for the store's open
 * write batch (flush), so it sees every write made before it was asked, as a search on the store's own
 * connection would. Started at the first search; a thread that dies fails its searches and is started again.
 */
export class ThreadPostSearch implements PostSearchIndex {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  /** Ids of the frozen channel lists the thread was given (a list is sent once, then named by its id). */
  private listIds = new WeakMap<readonly string[], number>();
  private nextListId = 0;
  private closed = false;

  public constructor(private readonly store: SqliteStore) {}

  public async search(query: PostSearchQuery): Promise<FoundPost[]> {
    if (query.channelIds.length === 0 || !(query.limit > 0)) return [];
    await this.store.flush();
    return foundPostsOf(await this.ask(query));
  }

  /** Stops the thread (before the store closes); later searches fail. */
  public async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
    this.failAll(new Error('the search thread is closed'));
  }

  private ask(query: PostSearchQuery): Promise<string> {
    if (this.closed) return Promise.reject(new Error('the search thread is closed'));
    return new Promise((resolve, reject) => this.send({ query, resolve, reject }));
  }

  private send(waiting: Waiting): void {
    if (this.closed) return waiting.reject(new Error('the search thread is closed'));
    const worker = this.started();
    const id = (this.nextId = (this.nextId + 1) % Number.MAX_SAFE_INTEGER);
    this.waiting.set(id, waiting);
    const { query } = waiting;
    // A frozen list (the search scope's, unchanged) is copied to the thread once; later only its id.
    const known = this.listIds.get(query.channelIds);
    if (known !== undefined) {
      worker.postMessage({ id, query: { ...query, channelIds: [] }, listId: known } satisfies SearchRequest);
    } else if (Object.isFrozen(query.channelIds)) {
      const listId = (this.nextListId += 1);
      this.listIds.set(query.channelIds, listId);
      worker.postMessage({ id, query, listId } satisfies SearchRequest);
    } else {
      worker.postMessage({ id, query } satisfies SearchRequest);
    }
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = workerOf(join(__dirname, `post-search.worker${extname(__filename)}`), { uri: this.store.uri, cacheKiB: SEARCH_CACHE_KIB });
    worker.unref();
    worker.on('message', (reply: SearchReply) => {
      const waiting = this.waiting.get(reply.id);
      if (!waiting) return;
      this.waiting.delete(reply.id);
      if ('rowsJson' in reply) waiting.resolve(reply.rowsJson);
      else if ('unknownList' in reply) {
        // The thread dropped that list: send it whole again.
        this.listIds.delete(waiting.query.channelIds);
        this.send(waiting);
      } else waiting.reject(new Error(`post search failed: ${reply.error}`));
    });
    const lost = (error: Error): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      // A new thread knows no list.
      this.listIds = new WeakMap();
      this.failAll(error);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the search thread exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiting) w.reject(error);
  }
}

/** The thread's answer (SearchReply's rowsJson) parsed: each stored post with its pending events and matches. */
function foundPostsOf(rowsJson: string): FoundPost[] {
  const rows = JSON.parse(rowsJson) as { post: StoredPost; events: PendingEvent[]; matches: string[] }[];
  return rows.map(({ post, events, matches }) => {
    post.pending_events = events;
    return { post, matches };
  });
}

/**
 * The compiled .js beside this file, or, when this file is the .ts source (tests through tsx), that source
 * through tsx's require hook (a worker does not inherit the loader its parent was started with).
 */
function workerOf(file: string, data: unknown): Worker {
  if (extname(file) !== '.ts') return new Worker(file, { workerData: data });
  const source = `require('tsx/cjs/api').register(); require(${JSON.stringify(file)});`;
  return new Worker(source, { eval: true, workerData: data });
}
