/** FNV-1a over the key's UTF-8 bytes: a stable key → partition mapping for the in-process bus. */
export function partitionFor(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    const code = key.charCodeAt(i);
    // ASCII is its own UTF-8 (ids, names): hashed without encoding the key into a buffer.
    if (code >= 0x80) return partitionOfBytes(key, partitions);
    hash ^= code;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % partitions;
}

function partitionOfBytes(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(key, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % partitions;
}
