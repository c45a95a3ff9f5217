/** FNV-1a over the key's UTF-8 bytes: a stable key → partition mapping for the in-process bus. */
export function partitionFor(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(key, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % partitions;
}
