import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_RANGES, preconditionOf, rangeOf, rangeStillValid } from './byte-ranges';

test('when Range is absent or empty, then the whole content', () => {
  assert.deepEqual(rangeOf(undefined, 100), { kind: 'whole' });
  assert.deepEqual(rangeOf('', 100), { kind: 'whole' });
  assert.deepEqual(rangeOf('bytes=', 100), { kind: 'whole' });
});

test('when one range is asked, then it is clamped to the content as Go clamps it', () => {
  assert.deepEqual(rangeOf('bytes=0-9', 100), { kind: 'part', range: { start: 0, end: 9 } });
  assert.deepEqual(rangeOf('bytes=90-', 100), { kind: 'part', range: { start: 90, end: 99 } });
  assert.deepEqual(rangeOf('bytes=50-500', 100), { kind: 'part', range: { start: 50, end: 99 } });
  assert.deepEqual(rangeOf('bytes=-10', 100), { kind: 'part', range: { start: 90, end: 99 } });
  assert.deepEqual(rangeOf('bytes=-500', 100), { kind: 'part', range: { start: 0, end: 99 } });
  assert.deepEqual(rangeOf('bytes= 3 - 4 ', 100), { kind: 'part', range: { start: 3, end: 4 } });
});

test('when a range does not parse, then "invalid range"; when every range starts past the end, then "failed to overlap"', () => {
  for (const bad of ['items=0-1', 'bytes=1', 'bytes=5-1', 'bytes=a-2', 'bytes=-', 'bytes=--1', 'bytes=1-x', 'bytes=-1-2', 'bytes=0x10-']) {
    assert.deepEqual(rangeOf(bad, 100), { kind: 'unsatisfiable', reason: 'invalid range', noOverlap: false }, bad);
  }
  assert.deepEqual(rangeOf('bytes=100-', 100), { kind: 'unsatisfiable', reason: 'invalid range: failed to overlap', noOverlap: true });
  assert.deepEqual(rangeOf('bytes=0-', 0), { kind: 'unsatisfiable', reason: 'invalid range: failed to overlap', noOverlap: true });
  // One range past the end among satisfiable ones is dropped, as Go does.
  assert.deepEqual(rangeOf('bytes=200-300,0-1', 100), { kind: 'part', range: { start: 0, end: 1 } });
});

test('when several ranges are asked, then they are parts in the order asked, each clamped; more than the content in all, then the whole', () => {
  assert.deepEqual(rangeOf('bytes=0-1,5-6', 100), { kind: 'parts', ranges: [{ start: 0, end: 1 }, { start: 5, end: 6 }] });
  assert.deepEqual(rangeOf('bytes=90-,-5, 10-10', 100), { kind: 'parts', ranges: [{ start: 90, end: 99 }, { start: 95, end: 99 }, { start: 10, end: 10 }] });
  assert.deepEqual(rangeOf('bytes=0-1,500-600,3-4', 100), { kind: 'parts', ranges: [{ start: 0, end: 1 }, { start: 3, end: 4 }] });
  assert.deepEqual(rangeOf('bytes=0-99,0-99', 100), { kind: 'whole' });
  assert.deepEqual(rangeOf('bytes=0-1,x', 100), { kind: 'unsatisfiable', reason: 'invalid range', noOverlap: false });
  assert.deepEqual(rangeOf('bytes=-0', 100), { kind: 'whole' });
});

test('when more ranges are asked than a store should be read for one answer, then the whole content', () => {
  const ranges = (n: number): string => `bytes=${Array.from({ length: n }, (_, i) => `${i}-${i}`).join(',')}`;
  const most = rangeOf(ranges(MAX_RANGES), 10_000);
  assert.equal(most.kind === 'parts' && most.ranges.length, MAX_RANGES);
  assert.deepEqual(rangeOf(ranges(MAX_RANGES + 1), 10_000), { kind: 'whole' });
});

test('when If-Modified-Since is not older than the content, then 304 (GET and HEAD, no If-None-Match); If-Unmodified-Since older, then 412', () => {
  const modified = Date.parse('Fri, 27 Nov 2026 10:00:00 GMT') + 400;
  const at = (offsetS: number): string => new Date(Date.parse('Fri, 27 Nov 2026 10:00:00 GMT') + offsetS * 1000).toUTCString();
  assert.equal(preconditionOf('GET', { 'if-modified-since': at(0) }, modified), 'not_modified');
  assert.equal(preconditionOf('HEAD', { 'if-modified-since': at(5) }, modified), 'not_modified');
  assert.equal(preconditionOf('GET', { 'if-modified-since': at(-1) }, modified), 'proceed');
  assert.equal(preconditionOf('POST', { 'if-modified-since': at(0) }, modified), 'proceed');
  assert.equal(preconditionOf('GET', { 'if-modified-since': at(0), 'if-none-match': '"x"' }, modified), 'proceed');
  assert.equal(preconditionOf('GET', { 'if-modified-since': 'not a date' }, modified), 'proceed');
  assert.equal(preconditionOf('GET', { 'if-unmodified-since': at(-1) }, modified), 'failed');
  assert.equal(preconditionOf('GET', { 'if-unmodified-since': at(0) }, modified), 'proceed');
  assert.equal(rangeStillValid({}, modified), true);
  assert.equal(rangeStillValid({ 'if-range': at(0) }, modified), true);
  assert.equal(rangeStillValid({ 'if-range': at(-1) }, modified), false);
  assert.equal(rangeStillValid({ 'if-range': '"an-etag"' }, modified), false);
});
