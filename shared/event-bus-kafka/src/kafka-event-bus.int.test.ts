import { describe, it } from 'node:test';
import { deadLetterTopic } from '@switchyard/event-bus';
import { eventBusContract } from '@switchyard/event-bus/contract';
import { KafkaEventBus } from './index';
import { SKIP_WITHOUT_BROKER, testBrokers, testBusOptions } from './test-support/broker';

if (testBrokers.length === 0) {
  describe('event bus contract: kafka', () => {
    it('runs against a real broker', { skip: SKIP_WITHOUT_BROKER }, () => undefined);
  });
} else {
  eventBusContract('kafka', async () => {
    const bus = new KafkaEventBus(testBusOptions('contract-a'));
    const others: KafkaEventBus[] = [];
    return {
      bus,
      // Every contract topic gets its dead-letter topic too: auto-creation is off on the broker.
      ensureTopics: async (topics, partitions) => {
        const dlqs = topics.map(deadLetterTopic).filter((t) => !topics.includes(t));
        await bus.ensureTopics([...topics.map((topic) => ({ topic, partitions })), ...dlqs.map((topic) => ({ topic, partitions: 1 }))]);
      },
      // Another process's view: its own connections, producer and group members.
      newClient: async () => {
        const other = new KafkaEventBus(testBusOptions(`contract-b${others.length}`));
        others.push(other);
        return other;
      },
      cleanup: async () => {
        await Promise.all([bus.close(), ...others.map((o) => o.close())]);
      },
    };
  });
}
