/**
 * Writes services/posts/src/adapters/emoji/system-emoji-names.json: the names of the system emoji
 * (every `short_name` and `short_names` entry of `emoji-datasource`'s `emoji.json`, the data the reference's
 * `model.SystemEmojis` is generated from). posts ships this list instead of the 28 MB package, most of it
 * images it never reads. Run after upgrading `emoji-datasource` (a root devDependency):
 *   node --import tsx scripts/generate-system-emoji-names.ts
 * The posts unit test `system-emoji-names.test.ts` fails while the list and the package disagree.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemEmojiNamesFromDatasource } from '../services/posts/src/test-support/system-emoji-datasource';

const target = join(__dirname, '..', 'services', 'posts', 'src', 'adapters', 'emoji', 'system-emoji-names.json');
const names = systemEmojiNamesFromDatasource();
writeFileSync(target, `[\n${names.map((name) => JSON.stringify(name)).join(',\n')}\n]\n`);
process.stdout.write(`${names.length} system emoji names written to ${target}\n`);
