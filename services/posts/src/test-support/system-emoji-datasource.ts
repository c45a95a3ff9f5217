import { readFileSync } from 'node:fs';

/**
 * The system emoji names as `emoji-datasource` (a root devDependency) lists them: every `short_name` and
 * `short_names` entry of its `emoji.json`, sorted. Only the generator script and the test that checks the
 * shipped list read the package; the running service reads `system-emoji-names.json`.
 */
export function systemEmojiNamesFromDatasource(): string[] {
  const path = require.resolve('emoji-datasource/emoji.json');
  const data = JSON.parse(readFileSync(path, 'utf8')) as { short_name?: unknown; short_names?: unknown }[];
  const out = new Set<string>();
  for (const emoji of data) {
    if (typeof emoji.short_name === 'string') out.add(emoji.short_name);
    if (Array.isArray(emoji.short_names)) for (const n of emoji.short_names) if (typeof n === 'string') out.add(n);
  }
  return [...out].sort();
}
