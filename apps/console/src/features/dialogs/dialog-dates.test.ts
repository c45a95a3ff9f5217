import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dateProblem, dateRules, resolveDay, toLocalInput, toRfc3339 } from './dialog-dates';
import type { DialogElement } from './dialog-types';

const NOW = new Date(2026, 10, 27, 9, 30); // 2026-11-27, local time

test('when a dialog date is relative or ISO, then it resolves to the local day; a day that does not exist does not', () => {
  assert.equal(resolveDay('today', NOW), '2026-11-27');
  assert.equal(resolveDay('tomorrow', NOW), '2026-11-28');
  assert.equal(resolveDay('yesterday', NOW), '2026-11-26');
  assert.equal(resolveDay('+14d', NOW), '2026-12-11');
  assert.equal(resolveDay('-3d', NOW), '2026-11-24');
  assert.equal(resolveDay('+2w', NOW), '2026-12-11');
  assert.equal(resolveDay('+1M', NOW), '2026-12-27');
  assert.equal(resolveDay('+1y', NOW), '2027-11-27');
  assert.equal(resolveDay('2026-02-28', NOW), '2026-02-28');
  assert.equal(resolveDay('2026-02-30', NOW), undefined);
  assert.equal(resolveDay('next week', NOW), undefined);
});

test('when datetime_config and the legacy keys both set bounds, then datetime_config wins; a bad interval falls back to 60', () => {
  const element: DialogElement = { display_name: 'Due', name: 'due', type: 'datetime', min_date: '2020-01-01', max_date: '+1d', time_interval: 7, datetime_config: { min_date: 'today', time_interval: 30 } };
  assert.deepEqual(dateRules(element, NOW), { min: '2026-11-27', max: '2026-11-28', intervalMinutes: 30 });
  assert.equal(dateRules({ display_name: 'D', name: 'd', type: 'datetime', time_interval: 7 }, NOW).intervalMinutes, 60);
});

test('when a date or datetime is outside its bounds, in a wrong format or off the time grid, then it says so', () => {
  const date: DialogElement = { display_name: 'Day', name: 'day', type: 'date', min_date: 'today', max_date: '+7d' };
  assert.equal(dateProblem(date, '2026-11-27', NOW), undefined);
  assert.equal(dateProblem(date, '2026-11-26', NOW), 'Must be on or after 2026-11-27.');
  assert.equal(dateProblem(date, '2026-12-05', NOW), 'Must be on or before 2026-12-04.');
  assert.equal(dateProblem(date, '27.11.2026', NOW), 'Must be a date (YYYY-MM-DD).');
  const datetime: DialogElement = { display_name: 'At', name: 'at', type: 'datetime', datetime_config: { time_interval: 30 } };
  assert.equal(dateProblem(datetime, '2026-11-27T14:30', NOW), undefined);
  assert.equal(dateProblem(datetime, '2026-11-27T14:20', NOW), 'Choose a time in steps of 30 minutes.');
  assert.equal(dateProblem(datetime, '2026-11-27', NOW), 'Must be a date and time.');
});

test('when a datetime is submitted, then it is RFC 3339 with the local offset; a relative default starts at noon', () => {
  const rfc = toRfc3339('2026-11-27T14:30');
  assert.match(rfc, /^2026-11-27T14:30:00[+-]\d{2}:\d{2}$/);
  assert.equal(toLocalInput(rfc, NOW), '2026-11-27T14:30');
  assert.equal(toLocalInput('tomorrow', NOW), '2026-11-28T12:00');
  assert.equal(toLocalInput('', NOW), '');
});
