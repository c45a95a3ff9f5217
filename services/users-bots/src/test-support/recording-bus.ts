import { MemoryEventBus, type OutgoingMessage } from '@switchyard/event-bus';

export interface Published {
  readonly topic: string;
  readonly key: string;
  readonly value: { type: string; payload: Record<string, unknown> } & Record<string, unknown>;
}

/** A memory bus that also records, synchronously, everything published (to assert "published before the answer"). */
export class RecordingBus extends MemoryEventBus {
  public readonly published: Published[] = [];

  public override async publish<T>(topic: string, messages: readonly OutgoingMessage<T>[]): Promise<void> {
    for (const m of messages) this.published.push({ topic, key: m.key, value: JSON.parse(JSON.stringify(m.value)) as Published['value'] });
    await super.publish(topic, messages);
  }

  public types(topic = 'users.events'): string[] {
    return this.published.filter((p) => p.topic === topic).map((p) => p.value.type);
  }

  public clear(): void {
    this.published.length = 0;
  }
}
