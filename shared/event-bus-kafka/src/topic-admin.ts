import type { Admin, ITopicConfig } from 'kafkajs';
import type { KafkaEventBusLogger } from './kafka-log';

export interface NewTopicSettings {
  readonly replicationFactor: number;
  readonly minInsyncReplicas: number | undefined;
  /** `retention.ms` per topic (undefined: the broker's default). */
  readonly retention: ReadonlyMap<string, number | undefined>;
}

/** Creates the topics of `specs` (topic → partitions) that do not exist yet, without waiting for their leaders. */
export async function createMissingTopics(admin: Admin, specs: ReadonlyMap<string, number>, settings: NewTopicSettings): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const missing = [...specs].filter(([topic]) => !existing.has(topic));
  if (missing.length === 0) return;
  // Not kafkajs' `waitForLeaders: true`: it gives up on the UNKNOWN_TOPIC_OR_PARTITION a KRaft broker
  // answers for a moment after creating a topic (seen in about one run in three here). waitForLeaders
  // retries through it, and also covers topics another process created meanwhile (where createTopics
  // returns false without waiting at all).
  await admin.createTopics({
    waitForLeaders: false,
    topics: missing.map(([topic, numPartitions]) => ({
      topic,
      numPartitions,
      replicationFactor: settings.replicationFactor,
      configEntries: topicConfig(settings.minInsyncReplicas, settings.retention.get(topic)),
    })),
  });
}

/** Waits until every partition of the topics has a leader; a topic with another partition count than wanted is logged and left as is. */
export async function waitForLeaders(admin: Admin, specs: ReadonlyMap<string, number>, logger: KafkaEventBusLogger, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [...specs.keys()] });
      if (topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) {
        for (const t of topics) {
          const wanted = specs.get(t.name);
          if (wanted !== undefined && t.partitions.length !== wanted) {
            logger.warn('topic exists with another partition count; left as is', { topic: t.name, partitions: t.partitions.length, wanted });
          }
        }
        return;
      }
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    if (Date.now() > deadline) throw new Error(`topics have no partition leaders after ${timeoutMs} ms: ${[...specs.keys()].join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function topicConfig(minInsyncReplicas: number | undefined, retentionMs: number | undefined): ITopicConfig['configEntries'] {
  const entries: { name: string; value: string }[] = [];
  if (minInsyncReplicas !== undefined) entries.push({ name: 'min.insync.replicas', value: String(minInsyncReplicas) });
  if (retentionMs !== undefined) entries.push({ name: 'retention.ms', value: String(retentionMs) });
  return entries;
}
