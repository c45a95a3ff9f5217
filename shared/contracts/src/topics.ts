/** Kafka topic names; their partition counts are TOPIC_PARTITIONS below. */
export const Topics = {
  /** users-bots → everyone: user, bot, session and token changes (keyed by user id). */
  usersEvents: 'users.events',
  /** users-bots → everyone: the system config after each change (single key `config`). */
  configEvents: 'config.events',
  /** posts → others: channel and membership changes (keyed by channel id). */
  channelsEvents: 'channels.events',
  /** other services → posts: create-post commands (keyed by channel id, idempotent by post id). */
  postsCommands: 'posts.commands',
  /** posts → others: post created/updated/deleted, reactions (keyed by channel id). */
  postsEvents: 'posts.events',
  /** any service → realtime: ephemeral posts, dialogs, typing (see realtime-events.ts). */
  realtimeEvents: 'realtime.events',
  /** outgoing-dispatch internal: `hook.changed` for the replicas' hook caches (keyed by hook id; ADR 0013). */
  outgoingDeliveries: 'outgoing.deliveries',
} as const;

export type TopicName = (typeof Topics)[keyof typeof Topics];

export const ALL_TOPICS: readonly TopicName[] = Object.values(Topics);

/**
 * The topics of the WebSocket event stream (realtime consumes them; event cursors are positions in them).
 * A cursor resumes from their retained log for `EventSettings.RetentionHours` (default 24, at most 8760):
 * their retention (Kafka `retention.ms`; the embedded journal keeps them for exactly that) must be at least
 * as long, else an older cursor is answered expired. Deployments keep them EVENT_STREAM_MIN_RETENTION_MS.
 */
export const EVENT_STREAM_TOPICS = [Topics.postsEvents, Topics.channelsEvents, Topics.usersEvents, Topics.realtimeEvents] as const;

/** The event stream topics' retention in the deployments (7 days: `EventSettings.RetentionHours` up to 168). */
export const EVENT_STREAM_MIN_RETENTION_MS = 7 * 86_400_000;

/**
 * Partitions of each topic; every topic also has a one-partition dead-letter topic `<topic>.dlq`. The one
 * list the deployments' topic sets are checked against by scripts/validate-deploy.sh: docker-compose.yml
 * (kafka-init's TOPICS), k8s/base/kafka-topics.env (the kafka-topics Job) and deploy/local/topics.txt.
 * validate-deploy reads the lines below as text: keep one `'<topic>': <partitions>,` per line.
 */
export const TOPIC_PARTITIONS: Readonly<Record<TopicName, number>> = {
  'users.events': 3,
  'config.events': 1,
  'channels.events': 6,
  'posts.commands': 6,
  'posts.events': 6,
  'outgoing.deliveries': 6,
  'realtime.events': 6,
};
