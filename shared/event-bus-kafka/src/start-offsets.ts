import { setTimeout as delay } from 'node:timers/promises';
import type { Admin } from 'kafkajs';

/** A partition and the offset of the next message to read there. */
export interface PartitionOffset {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
}

/**
 * Where a group that starts at the end begins: the current end (high watermark) of every partition of
 * `topics` that `groupId` has never committed. Partitions the group committed are left out (it resumes
 * after its commit there). One OffsetFetch, then a ListOffsets per topic with uncommitted partitions.
 */
export function endsOfUncommitted(admin: Admin, groupId: string, topics: readonly string[]): Promise<PartitionOffset[]> {
  return retried(admin, topics, () => ends(admin, groupId, topics));
}

/** The end (high watermark) of every partition of `topics`. */
export function endOffsetsOf(admin: Admin, topics: readonly string[]): Promise<PartitionOffset[]> {
  return retried(admin, topics, async () => {
    const all: PartitionOffset[] = [];
    for (const topic of topics) for (const end of await admin.fetchTopicOffsets(topic)) all.push({ topic, partition: end.partition, offset: end.offset });
    return all;
  });
}

async function retried<T>(admin: Admin, topics: readonly string[], run: () => Promise<T>, attempts = 20): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      // A partition whose leader is not known yet (a topic just created: KRaft answers NOT_LEADER for a
      // moment) or moved: kafkajs' admin gives up on it at once. Its metadata is read again, then retried.
      if (attempt >= attempts || (error as { retriable?: unknown } | null)?.retriable !== true) throw error;
      await delay(Math.min(2000, 100 * attempt));
      await admin.fetchTopicMetadata({ topics: [...topics] }).catch(() => undefined);
    }
  }
}

async function ends(admin: Admin, groupId: string, topics: readonly string[]): Promise<PartitionOffset[]> {
  const committed = await admin.fetchOffsets({ groupId, topics: [...topics] });
  const starts: PartitionOffset[] = [];
  for (const { topic, partitions } of committed) {
    const missing = new Set(partitions.filter((p) => Number(p.offset) < 0).map((p) => p.partition));
    if (missing.size === 0) continue;
    for (const end of await admin.fetchTopicOffsets(topic)) {
      if (missing.has(end.partition)) starts.push({ topic, partition: end.partition, offset: end.offset });
    }
  }
  return starts;
}
