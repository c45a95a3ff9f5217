import { MemoryEventBus } from '@switchyard/event-bus';
import { clientEventsContract } from '../contracts/client-events.contract';
import { BusClientEvents } from './bus-publishers';

// The in-process adapter: BusClientEvents on the memory bus the embedded runtime uses.
clientEventsContract('bus, in-process', async () => {
  const bus = new MemoryEventBus({ retryDelayMs: 1 });
  return { events: new BusClientEvents(bus), bus, cleanup: () => bus.close() };
});
