import { readFileSync } from 'node:fs';

/** File descriptors kept for everything but held long-polls (client connections, service pools, Kafka, Redis). */
const RESERVED_FILES = 1_024;

/** This process's soft limit on open files (Linux: /proc/self/limits); undefined when unknown or unlimited. */
export function openFilesLimit(limits = (): string => readFileSync('/proc/self/limits', 'utf8')): number | undefined {
  try {
    const soft = /^Max open files\s+(\d+)/m.exec(limits())?.[1];
    return soft === undefined ? undefined : Number(soft);
  } catch {
    return undefined;
  }
}

/**
 * Long-polls a gateway can hold with `openFiles` descriptors: two each (the client's socket and the one to
 * realtime), after RESERVED_FILES for everything else. Undefined (no bound of its own) when the limit is unknown.
 */
export function waitingPollsFor(openFiles: number | undefined): number | undefined {
  if (openFiles === undefined || !Number.isFinite(openFiles)) return undefined;
  return Math.max(0, Math.floor((openFiles - RESERVED_FILES) / 2));
}
