import { Joi, loadConfig, serviceEnvSchema, type Env, type ServiceEnv } from '@switchyard/config';

/** The service's environment (only main.ts reads process.env). Timers and limits default to the reference's. */
export interface RealtimeConfig extends ServiceEnv {
  readonly WS_PING_INTERVAL_MS: number;
  readonly WS_READ_DEADLINE_MS: number;
  readonly WS_AUTH_TIMEOUT_MS: number;
  readonly WS_SEND_QUEUE: number;
  readonly WS_REPLAY_BUFFER: number;
  readonly WS_RECONNECT_WINDOW_MS: number;
  readonly WS_MAX_FRAME_BYTES: number;
  readonly WS_WRITE_COALESCE_MS: number;
  readonly MEMBERSHIP_CACHE_TTL_MS: number;
  readonly MEMBERSHIP_CACHE_MAX_CHANNELS: number;
  readonly PRESENCE_TTL_MS: number;
  readonly EVENT_BUFFER_RECORDS: number;
  readonly EVENT_BUFFER_BYTES: number;
  readonly EVENT_MAX_WAITING: number;
  readonly EVENT_CURSOR_SECRET?: string;
}

export const realtimeEnvSchema = Joi.object<RealtimeConfig>({
  ...serviceEnvSchema('realtime', 8070, 'HTTP (WebSocket upgrade) port of the realtime service'),
  WS_PING_INTERVAL_MS: Joi.number().integer().min(100).default(60_000).description('Server ping frame interval'),
  WS_READ_DEADLINE_MS: Joi.number().integer().min(200).default(100_000).description('A socket without a pong for this long is dropped'),
  WS_AUTH_TIMEOUT_MS: Joi.number().integer().min(100).default(5_000).description('An unauthenticated socket is closed after this'),
  WS_SEND_QUEUE: Joi.number().integer().min(2).max(100_000).default(256).description('Frames in flight per socket before it is cut off (slow consumer)'),
  WS_REPLAY_BUFFER: Joi.number().integer().min(0).max(100_000).default(128).description('Sent events kept per connection for reconnect replay'),
  WS_RECONNECT_WINDOW_MS: Joi.number().integer().min(0).default(300_000).description('How long a disconnected connection can be resumed'),
  WS_MAX_FRAME_BYTES: Joi.number().integer().min(256).default(8_192).description('Largest client frame; larger closes the socket'),
  WS_WRITE_COALESCE_MS: Joi.number().integer().min(0).max(1_000).default(10).description('Frames to one socket within this many ms of the previous flush go out in one write; the first flush after a quiet spell is not held (0: those of one event-loop turn). ADR 0016'),
  MEMBERSHIP_CACHE_TTL_MS: Joi.number().integer().min(0).default(1_800_000).description('How long a channel member set or team membership is cached (membership events evict it sooner)'),
  MEMBERSHIP_CACHE_MAX_CHANNELS: Joi.number().integer().min(1).default(10_000).description('Channel member sets kept in the cache'),
  PRESENCE_TTL_MS: Joi.number().integer().min(300).default(30_000).description('With Redis: a replica that stops refreshing its online users (killed) stops counting after this; refreshed every third of it'),
  EVENT_BUFFER_RECORDS: Joi.number().integer().min(0).max(1_000_000).default(20_000).description('Records of the event stream kept by each replica for resumes from a cursor (WebSocket `cursor`, GET /api/v4/events); an older cursor is expired'),
  EVENT_BUFFER_BYTES: Joi.number().integer().min(0).max(4_294_967_296).default(16_777_216).description('Size of those records kept at most (their JSON text and about 160 bytes each; the oldest go first): what the buffer costs in heap whatever the events\' size. A cursor older than what is held resumes from the log within EventSettings.RetentionHours'),
  EVENT_CURSOR_SECRET: Joi.string().min(32).description('Key of the event cursors (default: INTERNAL_SECRET and its secondary). The embedded runtime keeps one in its data directory: its INTERNAL_SECRET is new at every start'),
  EVENT_MAX_WAITING: Joi.number().integer().min(0).max(1_000_000).default(10_000).description('GET /api/v4/events long-polls waiting at once per replica; more are answered 503 at once'),
});

/** Validates the env (every problem at once) into the typed config. */
export function loadRealtimeConfig(env: Env): Readonly<RealtimeConfig> {
  return loadConfig(realtimeEnvSchema, env);
}
