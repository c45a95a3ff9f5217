import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';

/** What the store's disk writes were, read from `strace -f -tt -T -y -xx -e trace=pwrite64,fsync,fdatasync` of the runtime. */
export interface WalTrace {
  /** WAL frames written, by the b-tree (table or index) that owns each frame's page. */
  readonly framesByTree: ReadonlyMap<string, number>;
  readonly frames: number;
  /** Checkpoints: fsync of the database file (one at the end of each), with the ms from the checkpoint's first sync to its end. */
  readonly checkpointMs: readonly number[];
  /** The group commit's syncs of the WAL (fdatasync, on the libuv pool). */
  readonly walSyncs: number;
}

interface Call {
  readonly at: number;
  readonly name: string;
  readonly file: string;
  readonly args: string;
  readonly seconds: number;
}

const LINE = /^\d+\s+(\d+):(\d+):(\d+\.\d+) (\w+)\(\d+<([^>]*)>(.*?)(?:<(\d+\.\d+)>)?$/;
const unescape = (text: string): string => text.replace(/\\x([0-9a-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

function parseCall(line: string): Call | undefined {
  const m = LINE.exec(line.trim());
  if (!m) return undefined;
  const at = (Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])) * 1000;
  return { at, name: m[4] ?? '', file: unescape(m[5] ?? ''), args: m[6] ?? '', seconds: Number(m[7] ?? 0) };
}

/** The page number in a WAL frame header write (its first 4 bytes, big-endian), as strace -xx shows them. */
function framePage(args: string): number | undefined {
  const bytes = /^, "((?:\\x[0-9a-f]{2}){4})/.exec(args)?.[1];
  if (!bytes || !args.includes(', 24, ')) return undefined;
  return [...bytes.matchAll(/\\x([0-9a-f]{2})/g)].reduce((page, b) => page * 256 + parseInt(b[1] ?? '0', 16), 0);
}

/** Which b-tree owns each page of the database file now (SQLite's dbstat). */
export function pageOwners(databaseFile: string): Map<number, string> {
  const db = new Database(databaseFile, { readonly: true });
  try {
    const rows = db.prepare('SELECT name, pageno FROM dbstat').all() as { name: string; pageno: number }[];
    return new Map(rows.map((r) => [r.pageno, r.name]));
  } finally {
    db.close();
  }
}

export function readWalTrace(traceFile: string, owners: ReadonlyMap<number, string>): WalTrace {
  const framesByTree = new Map<string, number>();
  const checkpointMs: number[] = [];
  let frames = 0;
  let walSyncs = 0;
  let checkpointStart: number | undefined;
  for (const line of readFileSync(traceFile, 'utf8').split('\n')) {
    const call = parseCall(line);
    if (!call) continue;
    const wal = call.file.endsWith('-wal');
    const database = call.file.endsWith('.db');
    if (call.name === 'pwrite64' && wal) {
      const page = framePage(call.args);
      if (page === undefined) continue;
      frames += 1;
      const tree = owners.get(page) ?? 'other';
      framesByTree.set(tree, (framesByTree.get(tree) ?? 0) + 1);
    } else if (call.name === 'fsync' && wal) {
      // A checkpoint syncs the WAL just before it copies pages (the writer syncs it again when it restarts the
      // WAL after a checkpoint: the next checkpoint's own sync replaces that start).
      checkpointStart = call.at;
    } else if (call.name === 'fsync' && database) {
      checkpointMs.push(call.at + call.seconds * 1000 - (checkpointStart ?? call.at));
      checkpointStart = undefined;
    } else if (call.name === 'fdatasync' && wal) {
      walSyncs += 1;
    }
  }
  return { framesByTree, frames, checkpointMs, walSyncs };
}
