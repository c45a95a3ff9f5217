import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openFilesLimit, waitingPollsFor } from './adapters/open-files';
import { startHarness } from './test-support/harness';

test('when more long-polls arrive than the gateway holds at once, then the extra one is 503 too_many_waiting at once and a place freed is taken again', async () => {
  const h = await startHarness({ services: ['users-bots', 'realtime'], env: { LONG_POLL_MAX_WAITING: '1', UPSTREAM_TIMEOUT_MS: '400' } });
  try {
    h.transport.hanging.add('realtime');
    const realtimeCalls = (): number => h.transport.calls.filter((c) => c.service === 'realtime').length;
    const held = h.request({ method: 'GET', url: '/api/v4/events?cursor=c&wait=30' });
    // The first is held (its call to realtime hangs); the second finds no place.
    while (realtimeCalls() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const refused = await h.request({ method: 'GET', url: '/api/v4/events?cursor=c&wait=30' });
    assert.equal(refused.statusCode, 503);
    assert.equal(refused.json().id, 'api.events.too_many_waiting.app_error');
    assert.equal(realtimeCalls(), 1, 'the refused poll never reached realtime');
    // Other routes are not bounded by it.
    h.transport.hanging.delete('realtime');
    const other = await h.request({ method: 'GET', url: '/api/v4/users/me' });
    assert.notEqual(other.statusCode, 503);
    // The held one ends (realtime did not answer in time): its place is free again.
    const first = await held;
    assert.equal(first.json().id, 'api.context.server_busy.app_error');
    const again = await h.request({ method: 'GET', url: '/api/v4/events?cursor=c&wait=30' });
    assert.notEqual(again.json().id, 'api.events.too_many_waiting.app_error');
    assert.equal(realtimeCalls(), 2);
  } finally {
    await h.stop();
  }
});

test('when the open-files limit is known, then the gateway holds two sockets per long-poll after a reserve (1,024, or half of a smaller limit); unknown or unlimited: no bound of its own', () => {
  const limits = (soft: string): (() => string) => () => `Limit                     Soft Limit           Hard Limit           Units\nMax open files            ${soft}                20000                files\n`;
  assert.equal(openFilesLimit(limits('20000')), 20_000);
  assert.equal(waitingPollsFor(openFilesLimit(limits('20000'))), 9_488);
  assert.equal(waitingPollsFor(openFilesLimit(limits('1048576'))), 523_776);
  assert.equal(waitingPollsFor(openFilesLimit(limits('unlimited'))), undefined);
  assert.equal(waitingPollsFor(openFilesLimit(() => { throw new Error('no /proc'); })), undefined);
  // A small limit keeps half for everything else instead of refusing every poll.
  assert.equal(waitingPollsFor(1_024), 256);
  assert.equal(waitingPollsFor(4_096), 1_536);
});
