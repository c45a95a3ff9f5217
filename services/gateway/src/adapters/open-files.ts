import { readFileSync } from 'node:fs';

/**
 * File descriptors kept for everything but held long-polls (client connections, service pools, Kafka, Redis):
 * 1,024, or half of a smaller limit (a limit of 1,024 still holds 256 polls instead of none).
 */
const reservedFiles = (openFiles: number): number => Math.min(1_024, Math.floor(openFiles / 2));

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
 * realtime), after those reserved for everything else. Undefined (no bound of its own) when the limit is
 * unknown. (Node raises its soft limit to the hard one at start: /proc/self/limits shows the raised one.)
 */
export function waitingPollsFor(openFiles: number | undefined): number | undefined {
  if (openFiles === undefined || !Number.isFinite(openFiles)) return undefined;
  return Math.max(0, Math.floor((openFiles - reservedFiles(openFiles)) / 2));
}
