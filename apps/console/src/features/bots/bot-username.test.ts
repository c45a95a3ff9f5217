import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botUsernameProblem } from './bot-username';

test('when a bot username follows the rule, then there is no problem', () => {
  for (const ok of ['abc', 'ci-bot', 'a.b_c-d9', 'a'.repeat(22)]) assert.equal(botUsernameProblem(ok), undefined, ok);
});

test('when a bot username breaks the rule, then the problem is said in words', () => {
  assert.match(botUsernameProblem('ab') ?? '', /at least 3/);
  assert.match(botUsernameProblem('a'.repeat(23)) ?? '', /at most 22/);
  assert.match(botUsernameProblem('9bot') ?? '', /start with a lowercase letter/);
  assert.match(botUsernameProblem('Bot') ?? '', /start with a lowercase letter/);
  assert.match(botUsernameProblem('bot!x') ?? '', /Only lowercase letters/);
  assert.match(botUsernameProblem('botX') ?? '', /Only lowercase letters/);
  assert.match(botUsernameProblem('bot.') ?? '', /must not end with a dot/i);
});
