import { maxBatchSizeOf, type BusMessage, type EventBus, type LogRange, type LogRead, type LogReadOptions, type OutgoingMessage, type PartitionEnd, type SubscribeOptions, type Subscription } from './ports';
import { readPartition } from './memory-read';
import type { EventJournal, JournalEntry } from './journal';
import { deliverWithRetries } from './memory-delivery';
import { firstDelivery, parsedValue, type Partition } from './memory-log';
import { partitionFor } from './partitioner';
import type { Group, LocatedPartition, Member, MemoryEventBusOptions } from './memory-bus-state';

export type { MemoryEventBusOptions } from './memory-bus-state';

/**
 * In-process event bus with Kafka's delivery semantics (partitions keyed by hash, consumer groups,
 * at-least-once, ordered redelivery, dead-letter topics). Used by the embedded runtime and unit tests.
 */
export class MemoryEventBus implements EventBus {
  private readonly topics = new Map<string, Partition[]>();
  private readonly groups = new Map<string, Group>();
  private readonly locations = new Map<string, LocatedPartition>();
  private closed = false;
  /** Groups subscribed since this bus started (the others were restored from the journal). */
  private readonly subscribedGroups = new Set<string>();

  public constructor(private readonly options: MemoryEventBusOptions = {}) {
    if (options.journal) this.restore(options.journal);
  }

  /**
   * Forgets the groups restored from the journal that nobody subscribed to since start (per-instance
   * groups of the previous run), so they stop holding messages back. Call once every consumer is up.
   */
  public forgetDormantGroups(): string[] {
    const dormant = [...this.groups.keys()].filter((id) => !this.subscribedGroups.has(id));
    for (const id of dormant) this.groups.delete(id);
    if (dormant.length > 0) this.options.journal?.forget(dormant);
    for (const partitionKey of this.locations.keys()) this.trim(partitionKey);
    return dormant;
  }

  private restore(journal: EventJournal): void {
    const state = journal.load();
    for (const stored of state.partitions) {
      const partition = this.partitionsOf(stored.topic)[stored.partition];
      if (!partition) continue;
      partition.base = stored.base;
      partition.log = stored.messages.map((m) => ({ key: m.key, json: m.json, headers: m.headers }));
    }
    for (const offset of state.offsets) {
      this.groupOf(offset.groupId).committed.set(`${offset.topic}#${offset.partition}`, offset.next);
    }
  }

  public async publish<T>(topic: string, messages: readonly OutgoingMessage<T>[]): Promise<void> {
    if (this.closed) throw new Error('event bus is closed');
    const partitions = this.partitionsOf(topic);
    const touched = new Set<number>();
    const entries: JournalEntry[] = [];
    for (const message of messages) {
      const index = partitionFor(message.key, partitions.length);
      const partition = partitions[index];
      if (!partition) continue;
      // Serialised once: consumers each get a copy, as they would from a broker.
      const json = JSON.stringify(message.value);
      if (json === undefined) throw new SyntaxError(`"undefined" is not valid JSON`);
      const stored = { key: message.key, json, headers: { ...(message.headers ?? {}) } };
      if (this.options.journal) entries.push({ topic, partition: index, offset: partition.base + partition.log.length, ...stored });
      partition.log.push(stored);
      touched.add(index);
    }
    // The journal hears of them before any group does (a group may ask it whether a message is durable yet).
    const appended = entries.length > 0 ? this.options.journal?.append(entries) : undefined;
    // Only the partitions that got a message can need a pump; the others have nothing new to hand over.
    const keys = [...touched].map((index) => `${topic}#${index}`);
    for (const group of this.groups.values()) {
      for (const partitionKey of keys) this.startPump(group, partitionKey);
    }
    await appended;
  }

  public async subscribe(options: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error('event bus is closed');
    const group = this.groupOf(options.groupId);
    this.subscribedGroups.add(options.groupId);
    const member: Member = { options, stopped: false, running: new Set() };
    for (const topic of options.topics) {
      this.partitionsOf(topic).forEach((partition, index) => {
        const key = `${topic}#${index}`;
        if (!group.committed.has(key)) {
          const next = options.startAt === 'latest' ? partition.base + partition.log.length : partition.base;
          group.committed.set(key, next);
          this.options.journal?.commit(group.id, topic, index, next);
        }
      });
    }
    group.members.push(member);
    this.rebalance(group);
    return {
      stop: async () => {
        member.stopped = true;
        const index = group.members.indexOf(member);
        if (index >= 0) group.members.splice(index, 1);
        await Promise.all([...member.running]);
        this.rebalance(group);
      },
    };
  }

  public async endOffsets(topics: readonly string[]): Promise<PartitionEnd[]> {
    return topics.flatMap((topic) => this.partitionsOf(topic).map((p, partition) => ({ topic, partition, offset: String(p.base + p.log.length) })));
  }

  /**
   * Reads what the log still has of each range: the partition's messages in memory, and before them what
   * the journal keeps as history (the embedded runtime's event topics, for their retention).
   */
  public async readLog(ranges: readonly LogRange[], maxMessages: number, options: LogReadOptions = {}): Promise<LogRead> {
    const count = Math.max(1, ranges.length);
    const max = Math.max(1, Math.floor(maxMessages / count));
    const share = { max, maxScanned: Math.max(1, Math.floor((options.maxScanned ?? maxMessages) / count)), ...(options.skip ? { skip: options.skip } : {}) };
    const messages: BusMessage[] = [];
    const next: { topic: string; partition: number; offset: string }[] = [];
    for (const range of ranges) {
      const partition = this.partitionsOf(range.topic)[range.partition];
      const read = partition ? readPartition(range, partition, share, this.options.journal) : undefined;
      if (!read) return { messages: [], next: [], gone: true };
      messages.push(...read.messages);
      next.push({ topic: range.topic, partition: range.partition, offset: String(read.next) });
    }
    return { messages, next, gone: false };
  }

  public async health(): Promise<boolean> {
    return !this.closed;
  }

  public async close(): Promise<void> {
    this.closed = true;
    const running: Promise<void>[] = [];
    for (const group of this.groups.values()) {
      for (const member of group.members) {
        member.stopped = true;
        running.push(...member.running);
      }
    }
    await Promise.all(running);
  }

  private partitionsOf(topic: string): Partition[] {
    let partitions = this.topics.get(topic);
    if (!partitions) {
      const count = this.options.partitions?.[topic] ?? this.options.defaultPartitions ?? 3;
      partitions = Array.from({ length: count }, () => ({ base: 0, log: [] }));
      this.topics.set(topic, partitions);
    }
    return partitions;
  }

  /** Topic, index and log of a partition key `topic#n` (parsed once per key). */
  private located(partitionKey: string): LocatedPartition {
    let found = this.locations.get(partitionKey);
    if (!found) {
      const topic = partitionKey.slice(0, partitionKey.lastIndexOf('#'));
      const index = Number(partitionKey.slice(partitionKey.lastIndexOf('#') + 1));
      found = { topic, index, partition: this.partitionsOf(topic)[index] };
      this.locations.set(partitionKey, found);
    }
    return found;
  }

  private groupOf(id: string): Group {
    let group = this.groups.get(id);
    if (!group) {
      group = { id, members: [], committed: new Map(), owners: new Map(), pumping: new Set() };
      this.groups.set(id, group);
    }
    return group;
  }

  /** Round-robin assignment of each subscribed partition to the members that subscribe its topic. */
  private rebalance(group: Group): void {
    group.owners.clear();
    for (const partitionKey of group.committed.keys()) {
      const topic = partitionKey.slice(0, partitionKey.lastIndexOf('#'));
      const candidates = group.members.filter((m) => m.options.topics.includes(topic));
      if (candidates.length === 0) continue;
      const index = Number(partitionKey.slice(partitionKey.lastIndexOf('#') + 1));
      const owner = candidates[index % candidates.length];
      if (owner) group.owners.set(partitionKey, owner);
    }
    this.startPumps(group);
  }

  private startPumps(group: Group): void {
    for (const partitionKey of group.owners.keys()) this.startPump(group, partitionKey);
  }

  /** Starts a pump for one partition of the group when it has an owner, is idle and has unhandled messages. */
  private startPump(group: Group, partitionKey: string): void {
    const owner = group.owners.get(partitionKey);
    if (!owner || owner.stopped || group.pumping.has(partitionKey) || !this.hasUnhandled(group, partitionKey)) return;
    group.pumping.add(partitionKey);
    const run = this.pump(group, partitionKey).finally(() => {
      group.pumping.delete(partitionKey);
      owner.running.delete(run);
      this.trim(partitionKey);
      // A publish between the pump's last read and this callback saw the partition as busy and started
      // nothing: pick such a message up now instead of leaving it for the next publish.
      if (this.hasUnhandled(group, partitionKey)) this.startPumps(group);
    });
    owner.running.add(run);
  }

  /** Handles one partition for its current owner until it is caught up or ownership moves. */
  private hasUnhandled(group: Group, partitionKey: string): boolean {
    const owner = group.owners.get(partitionKey);
    if (!owner || owner.stopped || this.closed) return false;
    const { partition } = this.located(partitionKey);
    if (!partition) return false;
    return (group.committed.get(partitionKey) ?? partition.base) < partition.base + partition.log.length;
  }

  /**
   * Handles the partition in order: with a batch handler, the queued messages (at most `maxBatchSize`) in
   * one call; the messages of a batch that threw, and any message of a member without one, one at a time.
   */
  private async pump(group: Group, partitionKey: string): Promise<void> {
    const { topic, index, partition } = this.located(partitionKey);
    if (!partition) return;
    /** Offsets below this go one at a time: their batch threw. */
    let singlyUntil = 0;
    for (;;) {
      const owner = group.owners.get(partitionKey);
      if (!owner || owner.stopped || this.closed) return;
      const offset = group.committed.get(partitionKey) ?? partition.base;
      const stored = partition.log[offset - partition.base];
      if (!stored) return;
      const { batchHandler } = owner.options;
      let next = offset + 1;
      if (batchHandler && offset >= singlyUntil) {
        const end = Math.min(partition.base + partition.log.length, offset + maxBatchSizeOf(owner.options));
        const messages: BusMessage[] = [];
        for (let at = offset; at < end; at += 1) {
          const queued = partition.log[at - partition.base];
          if (queued) messages.push(firstDelivery(topic, index, at, queued, parsedValue(partition, at, queued)));
        }
        try {
          await batchHandler(messages);
          next = end;
        } catch {
          // Not handled: the same messages go to the handler one at a time (attempts, retries, dead letters).
          singlyUntil = end;
          continue;
        }
      } else {
        await deliverWithRetries(owner.options, this.options, (target, messages) => this.publish(target, messages), { topic, partition: index, offset, stored, value: parsedValue(partition, offset, stored) });
      }
      group.committed.set(partitionKey, next);
      this.options.journal?.commit(group.id, topic, index, next);
    }
  }

  /** Drops messages every group has handled, so a long-running embedded process does not grow forever. */
  private trim(partitionKey: string): void {
    const { partition } = this.located(partitionKey);
    if (!partition) return;
    let low = partition.base + partition.log.length;
    for (const group of this.groups.values()) {
      const committed = group.committed.get(partitionKey);
      if (committed !== undefined) low = Math.min(low, committed);
    }
    const drop = low - partition.base;
    if (drop > 1024) {
      partition.log.splice(0, drop);
      partition.base = low;
      if (partition.parsed && partition.parsed.first < low) partition.parsed = undefined;
      const { topic, index } = this.located(partitionKey);
      this.options.journal?.trim(topic, index, low);
    }
  }
}
