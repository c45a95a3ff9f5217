import assert from 'node:assert/strict';
import { test } from 'node:test';
import { effectiveStatus, putStatus, touched } from './status';

const NOW = 1_800_000_000_000;
const facts = (connected: boolean, now = NOW) => ({ connected, now, awayAfterMs: 300_000 });

test('when a user has no stored status, then offline, or online while a socket is live', () => {
  assert.deepEqual(effectiveStatus('u1', undefined, facts(false)), { user_id: 'u1', status: 'offline', manual: false, last_activity_at: 0, dnd_end_time: 0 });
  assert.equal(effectiveStatus('u1', undefined, facts(true)).status, 'online');
});

test('when a socket made the user online, then online while connected, away once idle past the timeout, offline without a socket', () => {
  const stored = touched(undefined, 'u1', NOW);
  assert.equal(effectiveStatus('u1', stored, facts(true)).status, 'online');
  assert.equal(effectiveStatus('u1', stored, facts(true, NOW + 300_001)).status, 'away');
  assert.equal(effectiveStatus('u1', stored, facts(false)).status, 'offline');
});

test('when online is PUT through the API, then it is automatic and stands without a socket (the reference stores it)', () => {
  const stored = putStatus(undefined, 'u1', 'online', 0, NOW);
  const read = effectiveStatus('u1', stored, facts(false));
  assert.equal(read.status, 'online');
  assert.equal(read.manual, false);
});

test('when away, offline or dnd is PUT, then it is manual and socket activity keeps it', () => {
  for (const status of ['away', 'offline', 'dnd'] as const) {
    const stored = touched(putStatus(undefined, 'u1', status, 0, NOW), 'u1', NOW + 5);
    const read = effectiveStatus('u1', stored, facts(true, NOW + 10));
    assert.equal(read.status, status);
    assert.equal(read.manual, true);
    assert.equal(read.last_activity_at, NOW + 5);
  }
});

test('when a timed dnd ends, then the previous status returns', () => {
  const away = putStatus(undefined, 'u1', 'away', 0, NOW);
  const dnd = putStatus(away, 'u1', 'dnd', NOW / 1000 + 60, NOW);
  assert.equal(effectiveStatus('u1', dnd, facts(true, NOW + 1_000)).dnd_end_time, NOW / 1000 + 60);
  assert.equal(effectiveStatus('u1', dnd, facts(true, NOW + 1_000)).status, 'dnd');
  const after = effectiveStatus('u1', dnd, facts(true, NOW + 61_000));
  assert.equal(after.status, 'away');
  assert.equal(after.dnd_end_time, 0);
  const fromOnline = putStatus(putStatus(undefined, 'u1', 'online', 0, NOW), 'u1', 'dnd', NOW / 1000 + 60, NOW);
  assert.deepEqual([effectiveStatus('u1', fromOnline, facts(true, NOW + 61_000)).status, effectiveStatus('u1', fromOnline, facts(true, NOW + 61_000)).manual], ['online', false]);
});

test('when dnd is set with an end time, then it is cut to the minute, as the reference\'s truncateDNDEndTime', () => {
  const at = 1_800_000_000; // a whole minute (seconds)
  assert.equal(putStatus(undefined, 'u1', 'dnd', at + 59, NOW).dndEndTime, at);
  assert.equal(putStatus(undefined, 'u1', 'dnd', at, NOW).dndEndTime, at);
  assert.equal(putStatus(undefined, 'u1', 'dnd', 5, NOW).dndEndTime, 0, 'under a minute: no end, as the reference');
});
