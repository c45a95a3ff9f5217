/**
 * What a cursor adds to framing one WebSocket event (realtime's writeEventFrame: the shared prefix, the seq,
 * then the cursor's head and tail copied in): ns per frame without and with a cursor of a deployment's size,
 * five alternated runs of 2 million frames, medians. No socket: the write itself is the same either way.
 *
 *   node --conditions=source --import tsx scripts/bench-support/frame-cursor-micro.ts
 */
import { eventFrameLength, writeEventFrame } from '../../services/realtime/src/entry-points/ws/frame';

// A `posted` frame's prefix of about a kilobyte, and cursor parts as long as with 21 partitions.
const prefix = Buffer.from(
  `{"event": "posted", "data": {"channel_display_name":"Fan","channel_name":"fan","channel_type":"O","post":"${'x'.repeat(700)}","sender_name":"@u0","set_online":true,"team_id":"${'t'.repeat(26)}"}, "broadcast": {"omit_users":null,"user_id":"","channel_id":"${'c'.repeat(26)}","team_id":"","connection_id":"","omit_connection_id":""}, "seq": `,
);
const head = Buffer.from(`, "cursor": "${'A'.repeat(60)}.${'B'.repeat(16)}.`);
const tail = Buffer.from(`${'C'.repeat(16)}"`);
const out = Buffer.allocUnsafe(64 * 1024);
const FRAMES = 2_000_000;

function nsPerFrame(withCursor: boolean): number {
  const h = withCursor ? head : undefined;
  const t = withCursor ? tail : undefined;
  const started = process.cpuUsage();
  let at = 0;
  let bytes = 0;
  for (let i = 0; i < FRAMES; i += 1) {
    bytes += eventFrameLength(prefix, i, h, t);
    if (at + 2_000 > out.length) at = 0;
    at = writeEventFrame(out, at, prefix, i, h, t);
  }
  const used = process.cpuUsage(started);
  if (bytes === 0) throw new Error('no frame written');
  return ((used.user + used.system) * 1000) / FRAMES;
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
nsPerFrame(false);
nsPerFrame(true);
const without: number[] = [];
const withCursor: number[] = [];
for (let i = 0; i < 5; i += 1) {
  without.push(nsPerFrame(false));
  withCursor.push(nsPerFrame(true));
}
process.stdout.write(`frame: ${median(without).toFixed(0)} ns without a cursor, ${median(withCursor).toFixed(0)} ns with (+${(median(withCursor) - median(without)).toFixed(0)} ns)\n`);
