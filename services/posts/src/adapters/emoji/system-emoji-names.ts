import GENERATED_NAMES from './system-emoji-names.json';

/**
 * The names of the system emoji clients carry (the reference's `model.SystemEmojis`, generated from the same
 * emoji data): a custom emoji may not take one. `system-emoji-names.json` is generated from `emoji-datasource`
 * by `scripts/generate-system-emoji-names.ts`, never edited by hand; the aliases below are the ones the
 * reference adds to that data.
 */
export const REFERENCE_ALIASES: readonly string[] = ['thumbsup', 'thumbsdown', 'hugs', 'fist_raised', 'fist_oncoming', 'fist_left', 'fist_right', 'roll_eyes', 'thinking', 'robot', 'poop', 'shit', 'metal', 'fu'];

const names: ReadonlySet<string> = new Set<string>([...REFERENCE_ALIASES, ...(GENERATED_NAMES as string[])]);

export function isSystemEmojiName(name: string): boolean {
  return names.has(name);
}
