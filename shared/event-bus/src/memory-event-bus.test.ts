import { eventBusContract } from './contract';
import { MemoryEventBus } from './memory-event-bus';

eventBusContract('memory', async () => {
  const bus = new MemoryEventBus({ retryDelayMs: 1 });
  return {
    bus,
    ensureTopics: async () => undefined,
    // Members of one process share the broker: a second client is the same in-process bus.
    newClient: async () => ({
      publish: (topic, messages) => bus.publish(topic, messages),
      subscribe: (options) => bus.subscribe(options),
      health: () => bus.health(),
      close: async () => undefined,
    }),
    cleanup: () => bus.close(),
  };
});
