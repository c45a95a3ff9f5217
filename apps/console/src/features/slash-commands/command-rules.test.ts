import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandProblems, emptyDraft, showsToken, type Command } from './command-rules';

test('when the trigger is empty, starts with a slash, has a space or is too long, then it says why', () => {
  const ok = { ...emptyDraft, trigger: 'deploy', url: 'https://ci.example/cmd' };
  assert.deepEqual(commandProblems(ok), {});
  assert.equal(commandProblems({ ...ok, trigger: '' }).trigger, 'A trigger word is required.');
  assert.match(commandProblems({ ...ok, trigger: '/deploy' }).trigger ?? '', /leading slash/);
  assert.match(commandProblems({ ...ok, trigger: 'de ploy' }).trigger ?? '', /spaces/);
  assert.match(commandProblems({ ...ok, trigger: 'x'.repeat(129) }).trigger ?? '', /128/);
});

test('when the URL is missing or not http(s), or names are too long, then each field has its problem', () => {
  const ok = { ...emptyDraft, trigger: 'deploy', url: 'https://ci.example/cmd' };
  assert.equal(commandProblems({ ...ok, url: '' }).url, 'The request URL is required.');
  assert.match(commandProblems({ ...ok, url: 'ftp://x' }).url ?? '', /http/);
  assert.match(commandProblems({ ...ok, display_name: 'n'.repeat(65) }).display_name ?? '', /64/);
  assert.match(commandProblems({ ...ok, description: 'd'.repeat(129) }).description ?? '', /128/);
});

test('when the viewer created the command or manages others, then the token is shown', () => {
  const command = { creator_id: 'me' } as Command;
  assert.equal(showsToken(command, 'me', false), true);
  assert.equal(showsToken(command, 'someone', false), false);
  assert.equal(showsToken(command, 'someone', true), true);
});
