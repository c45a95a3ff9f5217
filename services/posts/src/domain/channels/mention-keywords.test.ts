import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { UserMentionSettings } from '@switchyard/contracts';
import { keywordMentions, keywordsOf } from './mention-keywords';

const kim = 'k'.repeat(26);
const ann = 'a'.repeat(26);
const settings = (entries: Record<string, Partial<UserMentionSettings>>) =>
  new Map(Object.entries(entries).map(([id, s]) => [id, { mention_keys: [], first_name: '', channel: true, ...s }]));
const found = (text: string, keywords = keywordsOf(settings({ [kim]: { mention_keys: ['Deploy', '@ops', 'on-call'], first_name: 'Kim' }, [ann]: { mention_keys: ['deploy', 'Überweisung'] } }))) =>
  [...keywordMentions([text], keywords)].sort();

describe('mention keywords (the reference\'s MentionKeywords and StandardMentionParser.ProcessText)', () => {
  it('when a word is a mention key, then its users are mentioned in any case; first names only as written', () => {
    assert.deepEqual(found('the DEPLOY failed'), [ann, kim].sort());
    assert.deepEqual(found('ask Kim about it'), [kim]);
    assert.deepEqual(found('ask kim about it'), [], 'a first name matches case-sensitively');
    assert.deepEqual(found('paging @OPS now'), [kim], 'a key may start with @');
    assert.deepEqual(found('nothing here'), []);
  });

  it('when a key is inside a longer word, then nobody (whole words only); punctuation around it is not part of the word', () => {
    assert.deepEqual(found('redeploy deployment'), []);
    assert.deepEqual(found('(deploy), "deploy"! deploy?'), [ann, kim].sort());
    assert.deepEqual(found('Kim\'s turn'), [kim], 'an apostrophe splits words');
  });

  it('when a word ends in . - : _ or joins words with them, then the key is found without them; @words are never split', () => {
    assert.deepEqual(found('who is on-call?'), [kim], 'a key with a dash matches whole');
    assert.deepEqual(found('Kim.'), [kim]);
    assert.deepEqual(found('Kim:_'), [kim]);
    assert.deepEqual(found('deploy.sh'), [ann, kim].sort(), 'split at the dot');
    assert.deepEqual(found('prod:deploy'), [ann, kim].sort());
    assert.deepEqual(found('@someone.deploy'), [], 'a possible @username is not split');
    assert.deepEqual(found('..Kim'), [kim], 'leading dots dropped');
    assert.deepEqual(found(':deploy:'), [], 'an emoji name is skipped');
    assert.deepEqual(found('my_deploy'), [], 'an underscore joins words');
  });

  it('when a key has non-ASCII letters, then a word containing it mentions (the reference\'s multibyte rule)', () => {
    assert.deepEqual(found('Die Überweisung ist da'), [ann]);
    assert.deepEqual(found('Sammelüberweisung'), [ann], 'contained in a longer word');
    assert.deepEqual(found('ÜBERWEISUNGEN'), [], 'the lower-cased key is not contained as written');
    assert.deepEqual(found('Sammel-überweisungen'), [ann]);
  });

  it('when nobody has keywords, then nothing is read', () => {
    assert.deepEqual([...keywordMentions(['deploy Kim'], keywordsOf(new Map()))], []);
  });
});
