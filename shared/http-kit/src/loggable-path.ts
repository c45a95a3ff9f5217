/**
 * A request path safe to log: the key of an incoming webhook (`/hooks/{key}`) is its only secret, so all but
 * its first six characters are cut. Other paths are returned unchanged.
 */
export function loggablePath(path: string): string {
  return path.replace(/^(\/hooks\/)([^/?#]{0,6})[^/?#]*/, (_all, prefix: string, head: string) => `${prefix}${head}…`);
}
