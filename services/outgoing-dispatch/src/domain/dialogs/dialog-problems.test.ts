import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalDialog } from './canonical-dialog';
import { dialogProblems } from './dialog-problems';

const problemsOf = (raw: unknown) => dialogProblems(canonicalDialog(raw));
const element = (over: Record<string, unknown>) => ({ display_name: 'Field', name: 'f', type: 'text', ...over });

test('when a dialog follows every reference rule, then there is no problem', () => {
  assert.deepEqual(
    problemsOf({
      title: 'Twenty-four chars title!',
      icon_url: 'https://example.com/i.png',
      elements: [
        element({ subtype: 'email', min_length: 1, max_length: 20 }),
        element({ name: 'ta', type: 'textarea', default: 'x'.repeat(3000) }),
        element({ name: 's', type: 'select', options: [{ text: 'A', value: 'a' }], default: 'a' }),
        element({ name: 'm', type: 'select', multiselect: true, options: [{ text: 'A', value: 'a' }, { text: 'B', value: 'b' }], default: 'a, b' }),
        element({ name: 'u', type: 'select', data_source: 'users' }),
        element({ name: 'b', type: 'bool', default: 'true' }),
        element({ name: 'r', type: 'radio', options: [{ text: 'A', value: 'a' }] }),
      ],
    }),
    [],
  );
});

test('when the title is empty or over 24 bytes, or the icon is not http(s), then each is a problem', () => {
  assert.match(problemsOf({ title: '' }).join(), /invalid dialog title/);
  assert.match(problemsOf({ title: 'é'.repeat(13) }).join(), /invalid dialog title/, '26 bytes');
  assert.match(problemsOf({ title: 'T', icon_url: 'javascript:alert(1)' }).join(), /invalid icon url/);
});

test('when element names repeat or names, display names and help texts break their limits, then each is named', () => {
  const problems = problemsOf({ title: 'T', elements: [element({}), element({}), element({ name: '', display_name: '' }), element({ name: 'n'.repeat(301) }), element({ name: 'h', help_text: 'h'.repeat(151) }), element({ name: 'd', display_name: 'd'.repeat(25) })] });
  const text = problems.join('\n');
  assert.match(text, /duplicate dialog element "f"/);
  assert.match(text, /Name cannot be empty/);
  assert.match(text, /DisplayName cannot be empty/);
  assert.match(text, /Name cannot be longer than 300/);
  assert.match(text, /HelpText cannot be longer than 150/);
  assert.match(text, /DisplayName cannot be longer than 24/);
});

test('when types, subtypes, lengths, defaults, options or data sources are wrong, then each is a problem', () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [element({ type: 'slider' }), /invalid element type: "slider"/],
    [element({ subtype: 'color' }), /invalid subtype "color"/],
    [element({ min_length: -1 }), /min length cannot be a negative number/],
    [element({ min_length: 5, max_length: 2 }), /min length should be less then max length/],
    [element({ default: 'x'.repeat(151) }), /Default cannot be longer than 150/],
    [element({ type: 'textarea', placeholder: 'x'.repeat(3001) }), /Placeholder cannot be longer than 3000/],
    [element({ type: 'select', options: [{ text: 'A', value: 'a' }], default: 'z' }), /default value "z" doesn't exist in options/],
    [element({ type: 'select', multiselect: true, options: [{ text: 'A', value: 'a' }], default: 'a,z' }), /default value "a,z" doesn't exist/],
    [element({ type: 'select', data_source: 'teams' }), /invalid data source "teams"/],
    [element({ type: 'select', data_source: 'dynamic' }), /dynamic data_source requires data_source_url/],
    [element({ type: 'bool', default: 'yes' }), /invalid default of bool/],
    [element({ type: 'radio', options: [{ text: 'A', value: 'a' }], default: 'b' }), /default value "b" doesn't exist/],
    [element({ type: 'text', multiselect: true }), /multiselect can only be used with select/],
    [element({ type: 'radio', options: [null, { text: '', value: 'v' }] }), /option at index 0 is null[\s\S]*option at index 1 needs a text and a value/],
    [element({ type: 'date', default: 'next week' }), /invalid default date/],
    [element({ type: 'datetime', time_interval: 7 }), /time_interval must be a divisor of 1440/],
  ];
  for (const [raw, expected] of cases) assert.match(problemsOf({ title: 'T', elements: [raw] }).join('\n'), expected, JSON.stringify(raw));
});

test('when a file element (11.10) has a short default, then it is valid; too many default files or a long placeholder are problems; allow_multiple reaches the client', () => {
  const file = (over: Record<string, unknown>) => ({ title: 'Files', elements: [{ display_name: 'Logs', name: 'logs', type: 'file', ...over }] });
  assert.deepEqual(problemsOf(file({})), []);
  assert.deepEqual(problemsOf(file({ allow_multiple: true, default: 'a,b,c' })), []);
  assert.equal(problemsOf(file({ default: 'a,b' })).length, 1);
  assert.equal(problemsOf(file({ placeholder: 'x'.repeat(301) })).length, 1);
  assert.equal((canonicalDialog(file({ allow_multiple: true })).elements ?? [])[0]?.allow_multiple, true);
});
