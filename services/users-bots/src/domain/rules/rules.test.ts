import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultSystemConfig } from '@switchyard/system-config';
import { assertValidBotUsername } from './bot-rules';
import { assertValidTeam, isReservedTeamName } from './team-rules';
import { assertValidEmail, assertValidPassword, assertValidUsername } from './user-rules';

const throwsId = (fn: () => void, id: string) => assert.throws(fn, (e: { id?: string }) => e.id === id);

test('when human usernames are checked, then 1–64 of [a-z0-9.-_] pass and reserved names fail', () => {
  for (const ok of ['a', 'bob', 'b.o-b_1', 'x'.repeat(64), '1abc']) assertValidUsername(ok);
  for (const bad of ['', 'Bob', 'a b', 'x'.repeat(65), 'all', 'channel', 'matterbot', 'system', 'é']) {
    throwsId(() => assertValidUsername(bad), 'model.user.is_valid.username.app_error');
  }
});

test('when bot usernames are checked, then the description rule applies (3–22, lowercase first, no trailing dot)', () => {
  for (const ok of ['abc', 'a.b', 'bot_1', 'a-b-c', 'x'.repeat(22), 'ab_']) assertValidBotUsername(ok);
  for (const bad of ['ab', 'x'.repeat(23), 'Abc', 'aBc', '1bc', '.bc', '_bc', 'abc.', 'a b', 'all', undefined, 5]) {
    throwsId(() => assertValidBotUsername(bad), 'model.bot.is_valid.username.app_error');
  }
});

test('when emails are checked, then lower-case parseable addresses up to 128 pass', () => {
  assertValidEmail('a.b+c@example.co.uk');
  for (const bad of ['', 'no-at', 'a@', '@b.com', 'a b@c.com', `${'a'.repeat(120)}@example.com`, 'A@example.com']) {
    throwsId(() => assertValidEmail(bad), 'model.user.is_valid.email.app_error');
  }
});

test('when passwords are checked, then length and the configured classes decide the id', () => {
  const config = defaultSystemConfig();
  assertValidPassword('12345678', config);
  throwsId(() => assertValidPassword('1234567', config), 'model.user.is_valid.pwd.app_error');
  throwsId(() => assertValidPassword('x'.repeat(73), config), 'model.user.is_valid.pwd.app_error');
  config.PasswordSettings = { MinimumLength: 5, Lowercase: true, Uppercase: true, Number: true, Symbol: true };
  assertValidPassword('aA1!x', config);
  throwsId(() => assertValidPassword('aA1xx', config), 'model.user.is_valid.pwd_lowercase_uppercase_number_symbol.app_error');
});

test('when team names are checked, then reserved prefixes, characters and lengths give their ids', () => {
  const base = { displayName: 'T', description: '', email: '', type: 'O', companyName: '', allowedDomains: '' };
  assertValidTeam({ ...base, name: 'good-team' });
  assertValidTeam({ ...base, name: 'a__b' });
  assert.ok(isReservedTeamName('apiteam'));
  assert.ok(isReservedTeamName('Plugins'));
  assert.equal(isReservedTeamName('myapi'), false);
  throwsId(() => assertValidTeam({ ...base, name: 'loginpage' }), 'model.team.is_valid.reserved.app_error');
  throwsId(() => assertValidTeam({ ...base, name: '-bad' }), 'model.team.is_valid.characters.app_error');
  throwsId(() => assertValidTeam({ ...base, name: 'x'.repeat(65) }), 'model.team.is_valid.name.app_error');
  throwsId(() => assertValidTeam({ ...base, name: 'ok-name', displayName: 'd'.repeat(65) }), 'model.team.is_valid.name.app_error');
  throwsId(() => assertValidTeam({ ...base, name: 'ok-name', description: 'd'.repeat(256) }), 'model.team.is_valid.description.app_error');
  throwsId(() => assertValidTeam({ ...base, name: 'ok-name', companyName: 'c'.repeat(65) }), 'model.team.is_valid.company.app_error');
});
