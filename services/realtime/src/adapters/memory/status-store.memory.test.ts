import { statusStoreContract } from '../contracts/status-store.contract';
import { MemoryStatusStore } from './status-store.memory';

statusStoreContract('MemoryStatusStore', async () => {
  const store = new MemoryStatusStore();
  return [store, store];
});
