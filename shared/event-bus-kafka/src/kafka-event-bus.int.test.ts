import { describe } from 'node:test';
import { Kafka, logLevel } from 'kafkajs';
import { deadLetterTopic } from '@switchyard/event-bus';
import { eventBusContract } from '@switchyard/event-bus/contract';
import { KafkaEventBus } from './index';
import { SKIP_WITHOUT_BROKER, testBrokers, testBusOptions } from './test-support/broker';
import { committedCount, groupJoined } from './test-support/group-state';

// The shared EventBus contract against the real broker (the memory adapter runs the same suite). Without a
// broker the suite is skipped with its reason, as every *.int.test.ts is; npm test sets KAFKA_BROKERS.
describe('KafkaEventBus: the EventBus contract', { skip: testBrokers.length === 0 ? SKIP_WITHOUT_BROKER : false }, () => {
  eventBusContract('kafka', async () => {
    const bus = new KafkaEventBus(testBusOptions('contract-a'));
    const others: KafkaEventBus[] = [];
    const admin = new Kafka({ clientId: 'contract-admin', brokers: [...testBrokers], logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
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
      // What the broker says about the group, instead of a fixed wait for the join and for commits.
      groupJoined: (groupId, members) => groupJoined(admin, groupId, members),
      committed: (groupId, topic, count) => committedCount(admin, groupId, topic, count),
      cleanup: async () => {
        await Promise.all([bus.close(), ...others.map((o) => o.close())]);
        await admin.disconnect();
      },
    };
  });
});
