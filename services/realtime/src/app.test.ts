import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryEventBus, type EventBus, type SubscribeOptions } from '@switchyard/event-bus';
import { InProcessTransport } from '@switchyard/http-kit';
import { createLogger } from '@switchyard/logger';
import { createRealtimeApp } from './app';
import { loadRealtimeConfig } from './config';

describe('realtime composition', () => {
  it('when a replica starts, then its consumer group is its own and starts at latest, not at the retained history (ADR 0002)', async () => {
    const memory = new MemoryEventBus();
    const subscribed: SubscribeOptions[] = [];
    const bus: EventBus = {
      publish: (topic, messages) => memory.publish(topic, messages),
      subscribe: (options) => {
        subscribed.push(options);
        return memory.subscribe(options);
      },
      health: () => memory.health(),
      close: () => memory.close(),
    };
    const config = loadRealtimeConfig({ INTERNAL_SECRET: 'realtime-composition-test-secret-0123456789' });
    const replicas = [1, 2].map(() => createRealtimeApp(config, { logger: createLogger({ service: 'realtime', level: 'error' }), bus, transport: new InProcessTransport() }));
    for (const replica of replicas) await replica.start();
    try {
      // Besides the events consumer, each replica follows config.events (its own group too). REST posts'
      // statuses ride on the replica's own group (ADR 0038): no second group on posts.events.
      const events = subscribed.filter((o) => o.topics.includes('posts.events'));
      assert.equal(events.length, 2);
      assert.deepEqual(events.map((o) => o.startAt), ['latest', 'latest']);
      assert.notEqual(events[0]?.groupId, events[1]?.groupId, 'one group per replica: each sees every event');
      assert.ok(subscribed.every((o) => o.startAt === 'latest'));
    } finally {
      for (const replica of replicas) await replica.stop();
      await memory.close();
    }
  });
});
