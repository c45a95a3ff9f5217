/**
 * A storage key is a relative path of plain segments joined by `/`: no empty, `.` or `..` segment, no
 * backslash, no NUL. Keys are built by the service (ids and a checked base name), so this is a last guard
 * against a path that could leave the store's root.
 */
export function checkedKey(key: string): string {
  if (key === '' || key.length > 1024 || key.includes('\\') || key.includes('\0') || key.startsWith('/')) throw new Error('invalid storage key');
  for (const segment of key.split('/')) if (segment === '' || segment === '.' || segment === '..') throw new Error('invalid storage key');
  return key;
}
