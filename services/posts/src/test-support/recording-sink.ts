import type { EventSink } from '../domain/ports';

export interface Published {
  readonly topic: string;
  readonly key: string;
  readonly value: { id: string; type: string; payload: Record<string, unknown> };
  readonly headers?: Readonly<Record<string, string>>;
}

/** Records what is published; `failNext(n)` makes the next n publishes reject (a broker outage). */
export class RecordingSink implements EventSink {
  public readonly published: Published[] = [];
  private failures = 0;

  public failNext(times = 1): void {
    this.failures = times;
  }

  public async publish(topic: string, messages: readonly { key: string; value: unknown; headers?: Readonly<Record<string, string>> }[]): Promise<void> {
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('broker unavailable');
    }
    for (const m of messages) this.published.push({ topic, key: m.key, value: m.value as Published['value'], ...(m.headers ? { headers: m.headers } : {}) });
  }

  public of(topic: string, type?: string): Published[] {
    return this.published.filter((p) => p.topic === topic && (type === undefined || p.value.type === type));
  }
}
