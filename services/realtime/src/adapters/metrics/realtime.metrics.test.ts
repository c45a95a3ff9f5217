import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { envelope, Topics } from '@switchyard/contracts';
import { createSilentLogger } from '@switchyard/logger';
import { startMetricsServer } from '@switchyard/metrics';
import { Hub } from '../../domain/hub';
import { eventsConsumer } from '../../entry-points/kafka/events.consumer';
import { broadcast } from '../../domain/ws-event';
import { RecordingSocket, session, world } from '../../test-support/fakes';
import { exposeRealtimeGauges, prometheusRealtimeMetrics } from './realtime.metrics.prom';

/** Every sample line of the scrape as `name{labels}` → value. */
async function scrape(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(url)).text();
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('switchyard_realtime_')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

const delta = (before: Map<string, number>, after: Map<string, number>, key: string): number => (after.get(key) ?? 0) - (before.get(key) ?? 0);

describe('realtime metrics (Prometheus)', () => {
  it('when events are sent, dropped and a slow consumer is cut off, then the scrape shows exact deltas, the gauges and no id in any label', async () => {
    const metrics = prometheusRealtimeMetrics();
    const base = world({ sendQueue: 4, replayBuffer: 4 });
    const hub = new Hub({ membership: base.membership, clock: base.clock, limits: { sendQueue: 4, replayBuffer: 4 }, reconnectWindowMs: 300_000, defaultServerVersion: 'v', metrics });
    exposeRealtimeGauges({ connections: () => hub.counts(), queuedFrames: () => hub.counts().queued, bufferedBytes: () => 1234 });
    const server = await startMetricsServer(0, '127.0.0.1');
    try {
      const before = await scrape(server.url);
      base.directory.addChannelMember('chan-secret-id', 'user-fast-1');
      base.directory.addChannelMember('chan-secret-id', 'user-slow-2');
      hub.open(new RecordingSocket(), { session: session('user-fast-1'), connectionId: '', sequenceNumber: 0 });
      // The slow socket never acknowledges: hello and status_change already hold 2 of its 4 slots.
      hub.open(new RecordingSocket(false), { session: session('user-slow-2'), connectionId: '', sequenceNumber: 0 });
      assert.equal(await hub.deliver({ event: 'typing', data: {}, broadcast: broadcast({ channel_id: 'chan-secret-id' }), droppable: true }), 1);
      await hub.deliver({ event: 'posted', data: {}, broadcast: broadcast({ channel_id: 'chan-secret-id' }) });
      await hub.deliver({ event: 'posted', data: {}, broadcast: broadcast({ channel_id: 'chan-secret-id' }) });
      await hub.deliver({ event: 'posted', data: {}, broadcast: broadcast({ channel_id: 'chan-secret-id' }) });
      await hub.deliver({ event: 'made_up_event', data: {}, broadcast: broadcast({ user_id: 'user-fast-1' }) });
      const consumer = eventsConsumer({ hub, membership: base.membership, users: base.directory, logger: createSilentLogger(), maxAttempts: 1, metrics, clock: { now: () => 1_000_250 } });
      const event = { ...envelope('user.created', { userId: 'new-user' }), time: 1_000_000 };
      await consumer({ topic: Topics.usersEvents, partition: 0, offset: '0', key: 'k', value: event, headers: {}, attempt: 1 });
      const after = await scrape(server.url);

      assert.equal(delta(before, after, 'switchyard_realtime_events_sent_total{event="typing"}'), 1);
      assert.equal(delta(before, after, 'switchyard_realtime_events_dropped_total{event="typing"}'), 1);
      // posted: fast 3 times, slow twice (its third write found the queue full and cut it off).
      assert.equal(delta(before, after, 'switchyard_realtime_events_sent_total{event="posted"}'), 5);
      assert.equal(delta(before, after, 'switchyard_realtime_disconnects_total{reason="slow_consumer"}'), 1);
      assert.equal(delta(before, after, 'switchyard_realtime_events_sent_total{event="other"}'), 1);
      assert.equal(delta(before, after, 'switchyard_realtime_events_sent_total{event="new_user"}'), 1);
      assert.equal(delta(before, after, 'switchyard_realtime_fanout_seconds_count'), 1);
      assert.equal(delta(before, after, 'switchyard_realtime_fanout_seconds_bucket{le="0.25"}'), 1);
      assert.equal(delta(before, after, 'switchyard_realtime_fanout_seconds_bucket{le="0.1"}'), 0);
      assert.equal(after.get('switchyard_realtime_connections{state="connected"}'), 1);
      assert.equal(after.get('switchyard_realtime_connections{state="away"}'), 1);
      assert.equal(after.get('switchyard_realtime_send_buffer_bytes'), 1234);
      assert.equal(after.get('switchyard_realtime_send_queue_frames'), 0);
      for (const key of after.keys()) assert.doesNotMatch(key, /chan-secret-id|user-fast-1|user-slow-2|new-user|made_up/, key);
    } finally {
      await server.close();
    }
  });
});
