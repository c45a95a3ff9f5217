import { counter, gauge, histogram } from './registry';

/** Fan-out latency buckets (seconds): 0.5 ms to 10 s. */
const FANOUT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/** The WebSocket events the service sends; anything else is counted as `other`, so the label stays bounded. */
const EVENTS = new Set([
  'hello',
  'posted',
  'post_edited',
  'post_deleted',
  'reaction_added',
  'reaction_removed',
  'ephemeral_message',
  'channel_created',
  'channel_updated',
  'channel_deleted',
  'user_added',
  'user_removed',
  'added_to_team',
  'new_user',
  'user_updated',
  'direct_added',
  'typing',
  'open_dialog',
  'status_change',
]);

export type RealtimeDisconnect = 'slow_consumer' | 'read_deadline';

/** What the realtime service reads at scrape time. */
export interface RealtimeGaugeSource {
  /** Authenticated connections with a live socket, and those kept for a reconnect (away). */
  connections(): { readonly connected: number; readonly away: number };
  /** Bytes written to sockets and not yet taken by the kernel. */
  bufferedBytes(): number;
  /** Frames handed to sockets and not yet flushed, over every connection. */
  queuedFrames(): number;
}

let source: RealtimeGaugeSource | undefined;

const sent = () => counter('switchyard_realtime_events_sent_total', 'WebSocket events written to connections, by event', ['event']);
const dropped = () => counter('switchyard_realtime_events_dropped_total', 'Droppable events (typing, status_change) skipped for a connection whose send queue was half full, by event', ['event']);
const disconnects = () => counter('switchyard_realtime_disconnects_total', 'Sockets cut off by the server: send queue full (slow_consumer) or no pong within the read deadline (read_deadline)', ['reason']);
const fanout = () => histogram('switchyard_realtime_fanout_seconds', 'From an event\'s time at its producer until this replica has written it to every receiving connection', [], FANOUT_BUCKETS);
const connections = () =>
  gauge('switchyard_realtime_connections', 'Authenticated WebSocket connections of this replica: connected, or away (kept for a reconnect)', ['state'], function collect() {
    if (!source) return;
    const now = source.connections();
    this.set({ state: 'connected' }, now.connected);
    this.set({ state: 'away' }, now.away);
  });
const buffered = () =>
  gauge('switchyard_realtime_send_buffer_bytes', 'Bytes written to WebSocket sockets and not yet taken by the kernel', [], function collect() {
    if (source) this.set(source.bufferedBytes());
  });
const queued = () =>
  gauge('switchyard_realtime_send_queue_frames', 'Frames handed to WebSocket sockets and not yet flushed, over every connection (a socket is cut off at WS_SEND_QUEUE)', [], function collect() {
    if (source) this.set(source.queuedFrames());
  });

function eventLabel(event: string): string {
  return EVENTS.has(event) ? event : 'other';
}

export const realtimeMetrics = {
  /** Where the gauges are read at scrape time (one realtime service per process). */
  gaugesFrom(next: RealtimeGaugeSource): void {
    source = next;
    connections();
    buffered();
    queued();
  },
  sent(event: string, receivers: number): void {
    sent().inc({ event: eventLabel(event) }, receivers);
  },
  dropped(event: string): void {
    dropped().inc({ event: eventLabel(event) });
  },
  disconnected(reason: RealtimeDisconnect): void {
    disconnects().inc({ reason });
  },
  fanOut(seconds: number): void {
    fanout().observe(seconds);
  },
};
