import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dialogProblems, elementProblem, fileIdsOf, initialValues, submissionOf, supportedElements } from './dialog-rules';
import { parseOpenDialog, type DialogElement } from './dialog-types';

const text = (over: Partial<DialogElement> = {}): DialogElement => ({ display_name: 'Name', name: 'name', type: 'text', ...over });

test('when a required field is empty, then it is required; an optional one is not', () => {
  assert.equal(elementProblem(text(), ''), 'This field is required.');
  assert.equal(elementProblem(text(), '   '), 'This field is required.');
  assert.equal(elementProblem(text({ optional: true }), ''), undefined);
  assert.equal(elementProblem({ display_name: 'OK', name: 'ok', type: 'bool' }, false), 'This field is required.');
  assert.equal(elementProblem({ display_name: 'OK', name: 'ok', type: 'bool', optional: true }, false), undefined);
});

test('when a text is shorter than min_length or longer than max_length, then it says by how much it must be', () => {
  const limited = text({ min_length: 3, max_length: 5 });
  assert.equal(elementProblem(limited, 'ab'), 'Must be at least 3 characters.');
  assert.equal(elementProblem(limited, 'abc'), undefined);
  assert.equal(elementProblem(limited, 'abcdef'), 'Must be at most 5 characters.');
});

test('when a subtype is number, email or url, then the value must look like one', () => {
  assert.equal(elementProblem(text({ subtype: 'number' }), '12x'), 'Must be a number.');
  assert.equal(elementProblem(text({ subtype: 'number' }), '12.5'), undefined);
  assert.equal(elementProblem(text({ subtype: 'email' }), 'nobody'), 'Must be a valid email address.');
  assert.equal(elementProblem(text({ subtype: 'url' }), 'ftp://x'), 'Must be a URL starting with http:// or https://.');
});

test('when a select or radio value is not an option, then it is refused; data_source selects take any picked id', () => {
  const radio: DialogElement = { display_name: 'R', name: 'r', type: 'radio', options: [{ text: 'A', value: 'a' }, null] };
  assert.equal(elementProblem(radio, 'b'), 'Choose one of the options.');
  assert.equal(elementProblem(radio, 'a'), undefined);
  assert.equal(elementProblem({ display_name: 'U', name: 'u', type: 'select', data_source: 'users' }, 'someid'), undefined);
});

test('when a dialog starts, then defaults fill it; the submission has bools, numbers and no empty optional fields', () => {
  const elements: DialogElement[] = [text({ default: 'Ada' }), { display_name: 'N', name: 'n', type: 'text', subtype: 'number', optional: true }, { display_name: 'B', name: 'b', type: 'bool', default: 'true' }, { display_name: 'S', name: 's', type: 'slider' }];
  const shown = supportedElements(elements);
  assert.deepEqual(shown.map((e) => e.name), ['name', 'n', 'b'], 'unknown types are not drawn');
  const values = initialValues(shown);
  assert.deepEqual(values, { name: 'Ada', n: '', b: true });
  assert.deepEqual(dialogProblems(shown, values), {});
  assert.deepEqual(submissionOf(shown, { ...values, n: '42' }), { name: 'Ada', n: 42, b: true });
  assert.deepEqual(submissionOf(shown, values), { name: 'Ada', b: true });
});

test('when the event carries a dialog string, then it is parsed; garbage is ignored', () => {
  assert.equal(parseOpenDialog('{"url":"http://x","dialog":{"title":"T"},"trigger_id":"t"}')?.dialog.title, 'T');
  assert.equal(parseOpenDialog('not json'), undefined);
  assert.equal(parseOpenDialog('{"dialog":{}}'), undefined);
  assert.equal(parseOpenDialog({}), undefined);
});

test('when a select is a multiselect, then its default is the comma list, every value must be an option, and it is submitted as a list', () => {
  const multi: DialogElement = { display_name: 'Parts', name: 'parts', type: 'select', multiselect: true, default: 'api, web', options: [{ text: 'API', value: 'api' }, { text: 'Web', value: 'web' }, { text: 'DB', value: 'db' }] };
  const values = initialValues([multi]);
  assert.equal(values.parts, 'api,web');
  assert.equal(elementProblem(multi, 'api,db'), undefined);
  assert.equal(elementProblem(multi, 'api,nope'), 'Choose one of the options.');
  assert.deepEqual(submissionOf([multi], values), { parts: ['api', 'web'] });
  assert.deepEqual(submissionOf([{ ...multi, optional: true }], { parts: '' }), {});
});

test('when a dialog has date and datetime elements, then they are drawn, checked against their bounds, and a datetime is sent as RFC 3339', () => {
  const day: DialogElement = { display_name: 'Day', name: 'day', type: 'date', min_date: '2020-01-01', max_date: '2020-12-31' };
  const at: DialogElement = { display_name: 'At', name: 'at', type: 'datetime' };
  assert.deepEqual(supportedElements([day, at]).map((e) => e.name), ['day', 'at']);
  assert.equal(elementProblem(day, '2021-01-01'), 'Must be on or before 2020-12-31.');
  assert.equal(elementProblem(day, '2020-06-01'), undefined);
  const sent = submissionOf([day, at], { day: '2020-06-01', at: '2020-06-01T09:00' });
  assert.equal(sent.day, '2020-06-01');
  assert.match(String(sent.at), /^2020-06-01T09:00:00[+-]\d{2}:\d{2}$/);
});

test('when a dialog has file elements, then their ids (comma lists) are the submission file_ids, each once', () => {
  const logs: DialogElement = { display_name: 'Logs', name: 'logs', type: 'file' };
  const shots: DialogElement = { display_name: 'Shots', name: 'shots', type: 'file' };
  assert.deepEqual(fileIdsOf([logs, shots, text()], { logs: 'a1,b2', shots: 'b2', name: 'c3' }), ['a1', 'b2']);
  assert.deepEqual(supportedElements([logs]).map((e) => e.type), ['file']);
});
