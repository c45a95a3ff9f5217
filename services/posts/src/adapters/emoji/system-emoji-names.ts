import { readFileSync } from 'node:fs';

/**
 * The names of the system emoji clients carry (the reference's `model.SystemEmojis`, generated from the same
 * emoji data): a custom emoji may not take one. Read once, on first use, from `emoji-datasource`'s
 * `emoji.json` (`short_names` of every emoji), plus the aliases the reference adds to them.
 */
const REFERENCE_ALIASES = ['thumbsup', 'thumbsdown', 'hugs', 'fist_raised', 'fist_oncoming', 'fist_left', 'fist_right', 'roll_eyes', 'thinking', 'robot', 'poop', 'shit', 'metal', 'fu'];

let names: ReadonlySet<string> | undefined;

function load(): ReadonlySet<string> {
  const path = require.resolve('emoji-datasource/emoji.json');
  const data = JSON.parse(readFileSync(path, 'utf8')) as { short_name?: unknown; short_names?: unknown }[];
  const out = new Set<string>(REFERENCE_ALIASES);
  for (const emoji of data) {
    if (typeof emoji.short_name === 'string') out.add(emoji.short_name);
    if (Array.isArray(emoji.short_names)) for (const n of emoji.short_names) if (typeof n === 'string') out.add(n);
  }
  return out;
}

export function isSystemEmojiName(name: string): boolean {
  names ??= load();
  return names.has(name);
}
