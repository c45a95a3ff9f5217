/** Kafka topic names; partition counts come from each deployment's config (deploy/local/topics.txt, k8s). */
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
