import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import GENERATED_NAMES from './system-emoji-names.json';
import { systemEmojiNamesFromDatasource } from '../../test-support/system-emoji-datasource';
import { isSystemEmojiName } from './system-emoji-names';

describe('system emoji names', () => {
  it('the shipped list is exactly what the generator makes of the installed emoji-datasource (regenerate after an upgrade)', () => {
    assert.deepEqual(GENERATED_NAMES, systemEmojiNamesFromDatasource());
  });

  it('knows the data set\'s names and the reference\'s aliases, and nothing else', () => {
    for (const name of ['smile', '+1', 'white_check_mark', 'thumbsup', 'shit', 'fist_raised']) assert.equal(isSystemEmojiName(name), true, name);
    for (const name of ['my_custom_emoji', 'Smile', '', 'smile ']) assert.equal(isSystemEmojiName(name), false, JSON.stringify(name));
  });
});
