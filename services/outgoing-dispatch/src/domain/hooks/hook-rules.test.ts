import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstWordOf, isValidHttpUrl, matchHook } from './hook-rules';

const CH = 'c'.repeat(26);

test('when the first word is taken, then it is the first whitespace-separated field', () => {
  assert.equal(firstWordOf('  hello\tthere world'), 'hello');
  assert.equal(firstWordOf(''), '');
  assert.equal(firstWordOf('\n\n'), '');
});

test('when a channel hook has no words, then every post of its channel matches with an empty trigger word, other channels none', () => {
  assert.deepEqual(matchHook({ channelId: CH, triggerWords: [], triggerWhen: 0 }, CH, 'anything'), { triggerWord: '' });
  assert.deepEqual(matchHook({ channelId: CH, triggerWords: [], triggerWhen: 0 }, CH, ''), { triggerWord: '' });
  assert.equal(matchHook({ channelId: CH, triggerWords: [], triggerWhen: 0 }, 'd'.repeat(26), 'anything'), undefined);
});

test('when words are exact or prefix, then the matching trigger word (not the whole first word) is reported', () => {
  assert.deepEqual(matchHook({ channelId: '', triggerWords: ['a', 'deploy'], triggerWhen: 0 }, CH, 'deploy'), { triggerWord: 'deploy' });
  assert.equal(matchHook({ channelId: '', triggerWords: ['deploy'], triggerWhen: 0 }, CH, 'deployed'), undefined);
  assert.deepEqual(matchHook({ channelId: '', triggerWords: ['dep'], triggerWhen: 1 }, CH, 'deployed'), { triggerWord: 'dep' });
  assert.equal(matchHook({ channelId: '', triggerWords: ['Dep'], triggerWhen: 1 }, CH, 'deployed'), undefined);
});

test('when callback URLs are checked, then only http(s) with a host pass', () => {
  for (const ok of ['http://a', 'https://a.b/c?d', 'HTTP://x:8080/']) assert.equal(isValidHttpUrl(ok), true, ok);
  for (const bad of ['ftp://a', 'http://', 'a.com', 'javascript:alert(1)', 'http//a']) assert.equal(isValidHttpUrl(bad), false, bad);
});
