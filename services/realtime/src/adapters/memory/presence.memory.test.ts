import { presenceStoreContract } from '../contracts/presence-store.contract';
import { MemoryPresenceBoard } from './presence.memory';

presenceStoreContract('MemoryPresence', async () => {
  const board = new MemoryPresenceBoard();
  return { replica: async (id) => board.replica(id) };
});
